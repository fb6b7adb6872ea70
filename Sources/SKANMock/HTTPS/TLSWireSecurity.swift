#if SKAN_MOCK_TLS
    import HTTPCore
    import SKANTLS

    /// OpenSSL's TLS as the wire protocol of the HTTPS port: the connection reads and writes the
    /// socket itself; each connection's `TLSSession` turns those bytes into HTTP and back in memory.
    struct TLSWireSecurity: HTTPWireSecurity {
        let context: TLSContext
        let plaintextRefusal: String

        func makeSession() -> (any HTTPWireSession)? {
            (try? TLSSession(context: context)).map { TLSWireSession(session: $0) }
        }
    }

    /// One connection's TLS: fed ciphertext, yields plaintext; handshake and alerts go out as they come.
    final class TLSWireSession: HTTPWireSession {
        private let session: TLSSession
        private var sawFirstByte = false
        private let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 16 * 1024, alignment: 1)

        init(session: TLSSession) { self.session = session }

        deinit { scratch.deallocate() }

        func receive(_ wire: UnsafeRawBufferPointer, into plaintext: inout [UInt8]) -> HTTPWireStatus {
            if !sawFirstByte, let first = wire.first {
                sawFirstByte = true
                guard TLSSession.looksLikeTLS(firstByte: first) else { return .notThisProtocol }
            }
            session.feed(ciphertext: wire)
            while true {
                switch session.readPlaintext(into: scratch) {
                case .data(let count):
                    plaintext.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[0..<count]))
                case .wantMore: return .ok
                case .closed: return .closed
                case .failed(let reason): return .failed(reason)
                }
            }
        }

        func send(_ plaintext: UnsafeRawBufferPointer, into wire: inout [UInt8]) -> Bool {
            do {
                try session.writePlaintext(plaintext)
            } catch {
                return false
            }
            takeOutput(into: &wire)
            return true
        }

        func takeOutput(into wire: inout [UInt8]) {
            if session.hasCiphertext { wire += session.takeCiphertext() }
        }

        var protocolVersion: String? { session.handshakeComplete ? session.negotiatedVersion : nil }

        /// close_notify, so that the client reads a clean end of the session, not a truncation.
        func close(into wire: inout [UInt8]) {
            session.shutdown()
            takeOutput(into: &wire)
        }
    }
#endif
