#if SKAN_MOCK_TLS
    import COpenSSL
    import SKANTLS

    /// A TLS client over memory BIOs, like the server's TLSSession, so tests run handshakes without
    /// sockets: bytes are shuttled between the two by hand.
    final class TestTLSClient {
        let context: OpaquePointer
        let ssl: OpaquePointer
        private let incoming: OpaquePointer
        private let outgoing: OpaquePointer

        /// `maxVersion` and `ciphers` make the old or weak clients the server must refuse.
        init(
            minVersion: Int32 = TLS1_2_VERSION, maxVersion: Int32 = TLS1_3_VERSION, ciphers: String? = nil,
            trusting caPEM: String? = nil, serverName: String = "localhost"
        ) {
            let context = SSL_CTX_new(TLS_client_method())!
            self.context = context
            SSL_CTX_set_security_level(context, 0)  // let this client offer what OpenSSL itself no longer would
            _ = skan_ssl_ctx_set_min_proto_version(context, minVersion)
            _ = skan_ssl_ctx_set_max_proto_version(context, maxVersion)
            if let ciphers { SSL_CTX_set_cipher_list(context, ciphers + ":@SECLEVEL=0") }
            if let caPEM {
                Array(caPEM.utf8).withUnsafeBytes { bytes in
                    let bio = BIO_new_mem_buf(bytes.baseAddress, Int32(bytes.count))
                    let ca = PEM_read_bio_X509(bio, nil, nil, nil)
                    X509_STORE_add_cert(SSL_CTX_get_cert_store(context), ca)
                    X509_free(ca)
                    BIO_free(bio)
                }
                SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
            }
            ssl = SSL_new(context)!
            incoming = BIO_new(BIO_s_mem())!
            outgoing = BIO_new(BIO_s_mem())!
            SSL_set_bio(ssl, incoming, outgoing)
            SSL_set_connect_state(ssl)
            _ = skan_ssl_set_tlsext_host_name(ssl, serverName)
            SSL_set1_host(ssl, serverName)
        }

        deinit {
            SSL_free(ssl)
            SSL_CTX_free(context)
        }

        func feed(_ bytes: [UInt8]) {
            guard !bytes.isEmpty else { return }
            _ = bytes.withUnsafeBytes { BIO_write(incoming, $0.baseAddress, Int32($0.count)) }
        }

        func takeCiphertext() -> [UInt8] {
            let pending = Int(BIO_ctrl_pending(outgoing))
            guard pending > 0 else { return [] }
            var bytes = [UInt8](repeating: 0, count: pending)
            let read = bytes.withUnsafeMutableBytes { BIO_read(outgoing, $0.baseAddress, Int32(pending)) }
            return Array(bytes.prefix(Int(max(read, 0))))
        }

        /// Advances the handshake: true when done, false when it needs the server, nil when it failed.
        func handshake() -> Bool? {
            let result = SSL_do_handshake(ssl)
            if result == 1 { return true }
            let error = SSL_get_error(ssl, result)
            ERR_clear_error()
            return error == SSL_ERROR_WANT_READ ? false : nil
        }

        func write(_ text: String) -> Bool {
            let bytes = Array(text.utf8)
            var written = 0
            return SSL_write_ex(ssl, bytes, bytes.count, &written) == 1
        }

        /// Whatever plaintext is available now.
        func read() -> String {
            var result: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                var count = 0
                guard SSL_read_ex(ssl, &buffer, buffer.count, &count) == 1 else {
                    ERR_clear_error()
                    break
                }
                result += buffer[0..<count]
            }
            return String(decoding: result, as: UTF8.self)
        }

        var verifyResult: Int { SSL_get_verify_result(ssl) }

        func shutdown() { _ = SSL_shutdown(ssl) }
    }

    /// Runs the handshake between `client` and `server` by moving bytes both ways: true when both ends
    /// completed, false when the server refused (its reason in `serverFailure`).
    func runHandshake(_ client: TestTLSClient, _ server: TLSSession, serverFailure: inout String?) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        for _ in 0..<20 {
            let clientState = client.handshake()
            server.feed(client.takeCiphertext())
            let result = buffer.withUnsafeMutableBytes { server.readPlaintext(into: $0) }
            client.feed(server.takeCiphertext())
            if case .failed(let reason) = result {
                serverFailure = reason
                _ = client.handshake()
                return false
            }
            if clientState == nil { return false }
            if clientState == true && server.handshakeComplete { return true }
        }
        return false
    }
#endif
