#if SKAN_MOCK_TLS
    import COpenSSL
    import SystemPOSIX

    /// An X.509 certificate as its DER bytes: a value that crosses threads freely; OpenSSL's X509 is
    /// parsed again where one is needed (rarely: at start-up and for the admin routes).
    public struct Certificate: Sendable, Hashable {
        public let der: [UInt8]

        /// Parses and re-encodes the X509 `certificate` (borrowed, not freed).
        init(x509 certificate: OpaquePointer) throws(TLSSetupError) {
            var buffer: UnsafeMutablePointer<UInt8>?
            let count = i2d_X509(certificate, &buffer)
            guard count > 0, let buffer else { throw TLSSetupError("cannot encode the certificate") }
            defer { CRYPTO_free(buffer, nil, 0) }
            der = Array(UnsafeBufferPointer(start: buffer, count: Int(count)))
        }

        /// Every certificate in a PEM file, in order; throws when there is none.
        public static func chain(pem: [UInt8]) throws(TLSSetupError) -> [Certificate] {
            try MemoryBIO.reading(pem) { bio throws(TLSSetupError) in
                var chain: [Certificate] = []
                OpenSSLErrors.clear()
                while let x509 = PEM_read_bio_X509(bio, nil, nil, nil) {
                    defer { X509_free(x509) }
                    chain.append(try Certificate(x509: x509))
                }
                OpenSSLErrors.clear()  // the last read always fails: end of data
                guard !chain.isEmpty else {
                    throw TLSSetupError("no PEM certificate (-----BEGIN CERTIFICATE-----) in it")
                }
                return chain
            }
        }

        /// Runs `body` with a fresh OpenSSL X509 of this certificate, freed afterwards.
        func withX509<T>(_ body: (OpaquePointer) throws(TLSSetupError) -> T) throws(TLSSetupError) -> T {
            let x509: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
                var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
                return d2i_X509(nil, &cursor, buffer.count)
            }
            guard let x509 else { throw TLSSetupError("not a DER certificate") }
            defer { X509_free(x509) }
            return try body(x509)
        }

        /// The PEM text (`-----BEGIN CERTIFICATE-----`), what `/__admin/ca.pem` serves.
        public var pem: String {
            let bytes =
                (try? withX509 { x509 throws(TLSSetupError) in
                    try MemoryBIO.writing { PEM_write_bio_X509($0, x509) == 1 }
                }) ?? []
            return String(decoding: bytes, as: UTF8.self)
        }

        /// SHA-256 of the DER encoding.
        public var sha256: [UInt8] {
            var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
            var length: UInt32 = 0
            guard EVP_Digest(der, der.count, &digest, &length, EVP_sha256(), nil) == 1 else { return [] }
            return Array(digest.prefix(Int(length)))
        }

        /// `AB:CD:...`, as `openssl x509 -fingerprint -sha256` and Settings on an iPhone show it.
        public var sha256Fingerprint: String {
            sha256.map { byte in
                let hex = String(byte, radix: 16, uppercase: true)
                return hex.count == 1 ? "0" + hex : hex
            }.joined(separator: ":")
        }

        /// The subject's common name, the name a phone shows for a profile's certificate.
        public var commonName: String? {
            try? withX509 { x509 throws(TLSSetupError) -> String? in
                guard let name = X509_get_subject_name(x509) else { return nil }
                var buffer = [CChar](repeating: 0, count: 256)
                let length = X509_NAME_get_text_by_NID(name, NID_commonName, &buffer, Int32(buffer.count))
                guard length > 0 else { return nil }
                return String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
        }

        /// Seconds since 1970 at which the certificate stops being valid.
        public var notAfter: Int? {
            try? withX509 { x509 throws(TLSSetupError) -> Int? in
                guard let time = X509_get0_notAfter(x509) else { return nil }
                var parsed = tm()  // OpenSSL's own parameter type (its headers include <time.h>)
                guard ASN1_TIME_to_tm(time, &parsed) == 1 else { return nil }
                return System.utcSeconds(
                    CalendarTime(
                        year: Int(parsed.tm_year) + 1900, month: Int(parsed.tm_mon) + 1, day: Int(parsed.tm_mday),
                        hour: Int(parsed.tm_hour), minute: Int(parsed.tm_min), second: Int(parsed.tm_sec)
                    ))
            }
        }
    }
#endif
