#if SKAN_MOCK_TLS
    import COpenSSL

    /// One HTTPS connection's TLS, over memory BIOs instead of the socket: the connection reads and
    /// writes its non-blocking socket itself, as its event loop's poller reports it ready, and its wire
    /// layer (`TLSWireSession` in SKANMock, behind HTTPCore's `HTTPWireSession`) hands received bytes
    /// to `feed`, reads plaintext back, and sends whatever `takeCiphertext()` returns. So plain HTTP
    /// and HTTPS share one connection path, parser and limits.
    ///
    /// Protocol: after every `feed` call `readPlaintext` until `.wantMore`, then send `takeCiphertext()`
    /// (handshake messages, alerts, close_notify appear there too, even after a failure). Not thread-safe:
    /// it belongs to its connection, which uses it on its event loop's serial queue only.
    public final class TLSSession {
        public enum ReadResult: Equatable, Sendable {
            /// This many plaintext bytes were written at the start of the buffer.
            case data(Int)
            /// Nothing to read until more ciphertext is fed (the handshake may still be going on).
            case wantMore
            /// The peer sent close_notify: no more plaintext will come.
            case closed
            /// The handshake or a record failed (an old protocol, no shared cipher, garbage): close the
            /// connection after sending `takeCiphertext()` (the alert).
            case failed(String)
        }

        /// Why writing plaintext failed.
        public struct WriteFailure: Error, Sendable, CustomStringConvertible {
            public let description: String
        }

        private let ssl: OpaquePointer
        /// Ciphertext from the peer, read by OpenSSL (owned by `ssl`).
        private let incoming: OpaquePointer
        /// Ciphertext OpenSSL produced, to be sent (owned by `ssl`).
        private let outgoing: OpaquePointer
        /// Keeps the SSL_CTX alive as long as its SSL.
        private let context: TLSContext
        private var failure: String?

        public init(context: TLSContext) throws(TLSSetupError) {
            OpenSSLErrors.clear()
            guard let ssl = SSL_new(context.context) else {
                throw TLSSetupError(OpenSSLErrors.drain(or: "cannot make a TLS session"))
            }
            guard let incoming = BIO_new(BIO_s_mem()), let outgoing = BIO_new(BIO_s_mem()) else {
                SSL_free(ssl)
                throw TLSSetupError("out of memory")
            }
            SSL_set_bio(ssl, incoming, outgoing)  // ssl owns both now
            SSL_set_accept_state(ssl)
            self.ssl = ssl
            self.incoming = incoming
            self.outgoing = outgoing
            self.context = context
        }

        deinit { SSL_free(ssl) }

        /// Whether a connection's first byte can start a TLS record (a handshake record, 0x16): plain
        /// HTTP on the HTTPS port starts with a letter, so the connection can answer 400 and close.
        public static func looksLikeTLS(firstByte: UInt8) -> Bool { firstByte == 0x16 }

        /// Ciphertext received from the socket.
        public func feed(ciphertext: UnsafeRawBufferPointer) {
            guard let base = ciphertext.baseAddress, ciphertext.count > 0 else { return }
            var offset = 0
            while offset < ciphertext.count {
                let chunk = Int32(min(ciphertext.count - offset, Int(Int32.max)))
                let written = BIO_write(incoming, base + offset, chunk)
                if written <= 0 { return }  // a memory BIO only fails when out of memory
                offset += Int(written)
            }
        }

        public func feed(_ ciphertext: [UInt8]) { ciphertext.withUnsafeBytes { feed(ciphertext: $0) } }

        /// Drives the handshake, then decrypts into `buffer`.
        public func readPlaintext(into buffer: UnsafeMutableRawBufferPointer) -> ReadResult {
            if let failure { return .failed(failure) }
            guard let base = buffer.baseAddress, buffer.count > 0 else { return .wantMore }
            OpenSSLErrors.clear()
            var count = 0
            let result = SSL_read_ex(ssl, base, buffer.count, &count)
            if result == 1 { return .data(count) }
            switch SSL_get_error(ssl, result) {
            case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE:
                return .wantMore
            case SSL_ERROR_ZERO_RETURN:
                return .closed
            case let code:
                let reason = OpenSSLErrors.drain(or: "TLS error \(code)")
                failure = reason
                return .failed(reason)
            }
        }

        /// Encrypts `plaintext` (all of it: the output BIO grows) after the handshake.
        public func writePlaintext(_ plaintext: UnsafeRawBufferPointer) throws(WriteFailure) {
            if let failure { throw WriteFailure(description: failure) }
            guard handshakeComplete else { throw WriteFailure(description: "the TLS handshake is not complete") }
            guard let base = plaintext.baseAddress, plaintext.count > 0 else { return }
            OpenSSLErrors.clear()
            var written = 0
            guard SSL_write_ex(ssl, base, plaintext.count, &written) == 1, written == plaintext.count else {
                let reason = OpenSSLErrors.drain(or: "TLS write failed")
                failure = reason
                throw WriteFailure(description: reason)
            }
        }

        public func writePlaintext(_ plaintext: [UInt8]) throws(WriteFailure) {
            let failure: WriteFailure? = plaintext.withUnsafeBytes { raw in
                do throws(WriteFailure) { try writePlaintext(raw) } catch { return error }
                return nil
            }
            if let failure { throw failure }
        }

        /// Queues close_notify (to be sent with `takeCiphertext()`), for a clean end of the connection.
        public func shutdown() {
            guard handshakeComplete, failure == nil else { return }
            OpenSSLErrors.clear()
            _ = SSL_shutdown(ssl)
            OpenSSLErrors.clear()
        }

        /// Whether ciphertext waits to be sent.
        public var hasCiphertext: Bool { BIO_ctrl_pending(outgoing) > 0 }

        /// The ciphertext to send on the socket, and the buffer emptied.
        public func takeCiphertext() -> [UInt8] {
            let pending = Int(BIO_ctrl_pending(outgoing))
            guard pending > 0 else { return [] }
            var bytes = [UInt8](repeating: 0, count: pending)
            let read = bytes.withUnsafeMutableBytes { BIO_read(outgoing, $0.baseAddress, Int32(pending)) }
            return read > 0 ? Array(bytes.prefix(Int(read))) : []
        }

        public var handshakeComplete: Bool { SSL_is_init_finished(ssl) == 1 }

        /// "TLSv1.3" or "TLSv1.2" once the handshake is complete (what the journal records), else nil.
        public var negotiatedVersion: String? {
            guard handshakeComplete, let name = SSL_get_version(ssl) else { return nil }
            return String(cString: name)
        }

        /// The cipher suite's OpenSSL name ("TLS_AES_128_GCM_SHA256") once the handshake is complete.
        public var negotiatedCipher: String? {
            guard handshakeComplete, let cipher = SSL_get_current_cipher(ssl), let name = SSL_CIPHER_get_name(cipher)
            else { return nil }
            return String(cString: name)
        }

        /// The name the client asked for (SNI), when it sent one.
        public var serverName: String? {
            guard let name = SSL_get_servername(ssl, TLSEXT_NAMETYPE_host_name) else { return nil }
            return String(cString: name)
        }
    }
#endif
