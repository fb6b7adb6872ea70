#if SKAN_MOCK_TLS
    import COpenSSL

    /// The server side of TLS, shared by every HTTPS connection: TLS 1.3, and TLS 1.2 with only forward-
    /// secret AEAD suites; nothing older. Loaded once at start-up; a failure there stops start-up.
    ///
    /// `@unchecked Sendable`: the SSL_CTX is configured in `init` and never changed afterwards, and
    /// OpenSSL allows SSL_new on one SSL_CTX from many threads.
    public final class TLSContext: @unchecked Sendable {
        /// The TLS 1.2 suites iOS uses: ECDHE with AES-GCM or ChaCha20-Poly1305 (TLS 1.3 suites are all AEAD).
        public static let tls12CipherList =
            "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:"
            + "ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305"

        let context: OpaquePointer
        public let identity: TLSIdentity

        /// A server context presenting `identity`; throws when the key does not match the certificate.
        public init(identity: TLSIdentity) throws(TLSSetupError) {
            OpenSSLErrors.clear()
            guard let context = SSL_CTX_new(TLS_server_method()) else {
                throw TLSSetupError(OpenSSLErrors.drain(or: "cannot make a TLS context"))
            }
            self.context = context
            self.identity = identity
            func check(_ ok: Bool, _ what: String) throws(TLSSetupError) {
                if !ok { throw TLSSetupError("\(what): \(OpenSSLErrors.drain(or: "OpenSSL failed"))") }
            }
            try check(skan_ssl_ctx_set_min_proto_version(context, TLS1_2_VERSION) == 1, "cannot require TLS 1.2")
            try check(SSL_CTX_set_cipher_list(context, Self.tls12CipherList) == 1, "cannot set the TLS 1.2 ciphers")
            skan_ssl_ctx_set_server_options(context)
            // No session tickets: each connection is independent, and there is no ticket key to manage.
            try check(SSL_CTX_set_num_tickets(context, 0) == 1, "cannot turn off session tickets")
            guard let server = identity.chain.first else { throw TLSSetupError("no certificate") }
            try server.withX509 { x509 throws(TLSSetupError) in
                try check(SSL_CTX_use_certificate(context, x509) == 1, "cannot use the certificate")
            }
            for intermediate in identity.chain.dropFirst() {
                try intermediate.withX509 { x509 throws(TLSSetupError) in
                    try check(skan_ssl_ctx_add1_chain_cert(context, x509) == 1, "cannot add a chain certificate")
                }
            }
            try identity.key.withEVP { key throws(TLSSetupError) in
                try check(SSL_CTX_use_PrivateKey(context, key) == 1, "cannot use the private key")
            }
            try check(SSL_CTX_check_private_key(context) == 1, "the private key does not match the certificate")
        }

        /// A context from PEM bytes: the chain (server certificate first) and its key.
        public convenience init(certificateChainPEM: [UInt8], privateKeyPEM: [UInt8]) throws(TLSSetupError) {
            let chain = try Certificate.chain(pem: certificateChainPEM)
            let key = try PrivateKey(pem: privateKeyPEM)
            try self.init(identity: TLSIdentity(chain: chain, key: key, trustAnchor: chain[chain.count - 1]))
        }

        deinit { SSL_CTX_free(context) }
    }
#endif
