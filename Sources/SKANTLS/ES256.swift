#if SKAN_MOCK_TLS
    import COpenSSL

    /// ECDSA P-256 with SHA-256 as JWS has it (RFC 7518 §3.4): the signature is r then s, 32 bytes
    /// each, not OpenSSL's DER. Signs AdAttributionKit postbacks with the local CA's key.
    public enum ES256 {
        /// The signature of `input` with `key` (a P-256 key), r || s.
        public static func sign(_ input: [UInt8], with key: PrivateKey) throws(TLSSetupError) -> [UInt8] {
            try key.withEVP { evp throws(TLSSetupError) -> [UInt8] in
                guard EVP_PKEY_get_base_id(evp) == EVP_PKEY_EC, EVP_PKEY_get_bits(evp) == 256 else {
                    throw TLSSetupError("the key is not an EC P-256 key: ES256 needs one")
                }
                OpenSSLErrors.clear()
                guard let context = EVP_MD_CTX_new() else { throw TLSSetupError("out of memory") }
                defer { EVP_MD_CTX_free(context) }
                var length = 0
                guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, evp) == 1,
                    EVP_DigestSign(context, nil, &length, input, input.count) == 1
                else { throw TLSSetupError(OpenSSLErrors.drain(or: "cannot sign")) }
                var der = [UInt8](repeating: 0, count: length)
                guard EVP_DigestSign(context, &der, &length, input, input.count) == 1 else {
                    throw TLSSetupError(OpenSSLErrors.drain(or: "cannot sign"))
                }
                return try raw(fromDER: Array(der.prefix(length)))
            }
        }

        /// Whether `signature` (r || s) is `certificate`'s key's ES256 signature of `input`.
        public static func verify(_ signature: [UInt8], of input: [UInt8], by certificate: Certificate) -> Bool {
            guard signature.count == 64 else { return false }
            return
                (try? certificate.withX509 { x509 throws(TLSSetupError) -> Bool in
                    guard let key = X509_get0_pubkey(x509), let sig = ECDSA_SIG_new() else { return false }
                    defer { ECDSA_SIG_free(sig) }
                    let r = BN_bin2bn(signature, 32, nil)
                    let s = signature.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress! + 32, 32, nil) }
                    guard ECDSA_SIG_set0(sig, r, s) == 1 else { return false }
                    var derPointer: UnsafeMutablePointer<UInt8>?
                    let derLength = i2d_ECDSA_SIG(sig, &derPointer)
                    guard derLength > 0, let derPointer else { return false }
                    defer { CRYPTO_free(derPointer, #fileID, #line) }
                    guard let context = EVP_MD_CTX_new() else { return false }
                    defer { EVP_MD_CTX_free(context) }
                    OpenSSLErrors.clear()
                    defer { OpenSSLErrors.clear() }
                    return EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key) == 1
                        && EVP_DigestVerify(context, derPointer, Int(derLength), input, input.count) == 1
                }) ?? false
        }

        /// r || s from OpenSSL's DER `ECDSA-Sig-Value`.
        static func raw(fromDER der: [UInt8]) throws(TLSSetupError) -> [UInt8] {
            let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
                var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
                return d2i_ECDSA_SIG(nil, &cursor, buffer.count)
            }
            guard let parsed else { throw TLSSetupError("OpenSSL gave an unreadable ECDSA signature") }
            defer { ECDSA_SIG_free(parsed) }
            var out = [UInt8](repeating: 0, count: 64)
            guard let r = ECDSA_SIG_get0_r(parsed), let s = ECDSA_SIG_get0_s(parsed),
                BN_bn2binpad(r, &out, 32) == 32,
                out.withUnsafeMutableBufferPointer({ BN_bn2binpad(s, $0.baseAddress! + 32, 32) }) == 32
            else { throw TLSSetupError("OpenSSL gave an ECDSA signature longer than P-256's") }
            return out
        }
    }

    extension LocalCA {
        /// The ES256 signature of `input` with the CA's key.
        public func signES256(_ input: [UInt8]) throws(TLSSetupError) -> [UInt8] { try ES256.sign(input, with: key) }

        /// The JWS `kid` of the CA's key: the first 16 hex digits of its certificate's SHA-256.
        public var keyID: String {
            "skan-mock-ca-"
                + certificate.sha256.prefix(8).map { byte in
                    let hex = String(byte, radix: 16)
                    return hex.count == 1 ? "0" + hex : hex
                }.joined()
        }
    }
#endif
