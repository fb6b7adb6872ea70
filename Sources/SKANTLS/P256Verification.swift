#if SKAN_MOCK_TLS
    import COpenSSL

    /// ECDSA P-256 with SHA-256 verification against a public key given as DER
    /// SubjectPublicKeyInfo, the form Apple publishes its postback keys in: received postbacks are
    /// checked with it (SKAdNetwork's DER signature; a JWS's r || s once put in DER).
    public enum P256Verification {
        /// Whether `der` (ECDSA-Sig-Value) is `publicKey`'s signature of `message`; false for a key
        /// that is not EC P-256 or does not parse.
        public static func verify(der: [UInt8], of message: [UInt8], publicKey: [UInt8]) -> Bool {
            guard !der.isEmpty, !publicKey.isEmpty else { return false }
            OpenSSLErrors.clear()
            defer { OpenSSLErrors.clear() }
            let key: OpaquePointer? = publicKey.withUnsafeBufferPointer { buffer in
                var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
                return d2i_PUBKEY(nil, &cursor, buffer.count)
            }
            guard let key else { return false }
            defer { EVP_PKEY_free(key) }
            guard EVP_PKEY_get_base_id(key) == EVP_PKEY_EC, EVP_PKEY_get_bits(key) == 256,
                let context = EVP_MD_CTX_new()
            else { return false }
            defer { EVP_MD_CTX_free(context) }
            return EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key) == 1
                && EVP_DigestVerify(context, der, der.count, message, message.count) == 1
        }
    }

    extension Certificate {
        /// The certificate's public key as DER SubjectPublicKeyInfo; empty if it has none.
        public var publicKeyDER: [UInt8] {
            (try? withX509 { x509 throws(TLSSetupError) -> [UInt8] in
                guard let key = X509_get0_pubkey(x509) else { return [] }
                var buffer: UnsafeMutablePointer<UInt8>?
                let count = i2d_PUBKEY(key, &buffer)
                guard count > 0, let buffer else { return [] }
                defer { CRYPTO_free(buffer, nil, 0) }
                return Array(UnsafeBufferPointer(start: buffer, count: Int(count)))
            }) ?? []
        }
    }
#endif
