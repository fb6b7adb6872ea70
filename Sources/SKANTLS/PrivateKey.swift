#if SKAN_MOCK_TLS
    import COpenSSL

    /// A private key as its PEM (PKCS #8) bytes: a Sendable value; OpenSSL's EVP_PKEY is parsed again
    /// where one is needed.
    public struct PrivateKey: Sendable {
        let pem: [UInt8]

        /// Encodes the EVP_PKEY `key` (borrowed, not freed).
        init(evp key: OpaquePointer) throws(TLSSetupError) {
            pem = try MemoryBIO.writing { PEM_write_bio_PrivateKey($0, key, nil, nil, 0, nil, nil) == 1 }
        }

        /// The key of a PEM file; throws when there is none (or it is encrypted: we have no passphrase).
        public init(pem bytes: [UInt8]) throws(TLSSetupError) {
            let key = try MemoryBIO.reading(bytes) { bio throws(TLSSetupError) -> OpaquePointer in
                OpenSSLErrors.clear()
                guard let key = PEM_read_bio_PrivateKey(bio, nil, { _, _, _, _ in -1 }, nil) else {
                    let reason = OpenSSLErrors.drain(or: "unreadable")
                    throw TLSSetupError("no unencrypted PEM private key in it (\(reason))")
                }
                return key
            }
            defer { EVP_PKEY_free(key) }
            try self.init(evp: key)
        }

        /// A new ECDSA P-256 key, the kind every iOS version accepts and the fastest to handshake with.
        static func generateP256() throws(TLSSetupError) -> PrivateKey {
            OpenSSLErrors.clear()
            guard let key = skan_generate_p256_key() else {
                throw TLSSetupError(OpenSSLErrors.drain(or: "cannot make a P-256 key"))
            }
            defer { EVP_PKEY_free(key) }
            return try PrivateKey(evp: key)
        }

        /// Runs `body` with a fresh EVP_PKEY of this key, freed afterwards.
        func withEVP<T>(_ body: (OpaquePointer) throws(TLSSetupError) -> T) throws(TLSSetupError) -> T {
            let key = try MemoryBIO.reading(pem) { bio throws(TLSSetupError) -> OpaquePointer in
                guard let key = PEM_read_bio_PrivateKey(bio, nil, nil, nil) else {
                    throw TLSSetupError("unreadable private key")
                }
                return key
            }
            defer { EVP_PKEY_free(key) }
            return try body(key)
        }

        /// Whether this key is the private half of `certificate`'s public key.
        public func matches(_ certificate: Certificate) -> Bool {
            (try? withEVP { key throws(TLSSetupError) in
                try certificate.withX509 { x509 in
                    OpenSSLErrors.clear()
                    defer { OpenSSLErrors.clear() }
                    return X509_check_private_key(x509, key) == 1
                }
            }) ?? false
        }
    }
#endif
