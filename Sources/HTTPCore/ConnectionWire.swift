/// The layer between a connection's socket and its HTTP bytes: nothing on a plain port, an
/// `HTTPWireSession` (TLS) on an HTTPS one. The connection hands it what it read and what it
/// wants to send and knows nothing of the protocol underneath; on a plain port every call is a
/// pass-through, so plain HTTP still sends from the connection's own buffer without a copy.
///
/// Used only on its connection's queue.
struct ConnectionWire {
    private let session: (any HTTPWireSession)?
    /// Bytes made for the socket by the session (records, handshake, alerts) or written raw (a
    /// plaintext refusal), and how many of them were sent.
    private(set) var sealed: [UInt8] = []
    private(set) var sealedOffset = 0
    private var opened: [UInt8] = []
    /// What a client that spoke plain HTTP to the HTTPS port is told.
    let plaintextRefusal: String

    /// An HTTPS port whose session could not be made (the TLS library out of memory): the
    /// connection must close, never fall back to plain HTTP on a port the client trusts as HTTPS.
    let sessionUnavailable: Bool

    init(security: (any HTTPWireSecurity)?) {
        session = security?.makeSession()
        sessionUnavailable = security != nil && session == nil
        plaintextRefusal = security?.plaintextRefusal ?? ""
    }

    /// Whether bytes go to the socket as HTTP wrote them.
    var isPlain: Bool { session == nil }

    /// The negotiated protocol (`TLSv1.3`) on an HTTPS port once the handshake is done.
    var protocolVersion: String? { session?.protocolVersion }

    /// Whether something can be said to the client: always on a plain port, after the handshake
    /// on an HTTPS one.
    var canAnswer: Bool { session == nil || session?.protocolVersion != nil }

    /// Runs `body` on `sealed` and its offset (the connection's send loop), in one access.
    mutating func withSealed(_ body: (inout [UInt8], inout Int) -> Void) {
        body(&sealed, &sealedOffset)
    }

    /// Bytes waiting in `sealed`.
    var pendingCount: Int { sealed.count - sealedOffset }

    enum Received { case ok, closed, notThisProtocol, failed }

    /// Bytes read from the socket; the HTTP bytes they carry go to `parser`.
    mutating func receive(_ bytes: UnsafeRawBufferPointer, into parser: inout HTTPRequestParser) -> Received {
        guard let session else {
            parser.append(bytes)
            return .ok
        }
        switch session.receive(bytes, into: &opened) {
        case .ok: break
        case .closed: return .closed
        case .notThisProtocol: return .notThisProtocol
        case .failed: return .failed
        }
        parser.append(opened)
        opened.removeAll(keepingCapacity: true)
        return .ok
    }

    /// Moves HTTP bytes waiting in `outbound` from `offset` into `sealed` (TLS); the protocol's own
    /// bytes go first. A plain port leaves them where they are. False when the session is broken.
    mutating func seal(_ outbound: inout [UInt8], _ offset: inout Int) -> Bool {
        guard let session else { return true }
        session.takeOutput(into: &sealed)
        if offset < outbound.count {
            let start = offset
            let sent = outbound.withUnsafeBytes { bytes in
                session.send(UnsafeRawBufferPointer(rebasing: bytes[start...]), into: &sealed)
            }
            outbound.removeAll(keepingCapacity: outbound.capacity <= 64 * 1024)
            offset = 0
            guard sent else { return false }
        }
        session.takeOutput(into: &sealed)
        return true
    }

    /// What the protocol wants said after a failure (a TLS alert: "protocol version", "handshake
    /// failure"), moved to `sealed`, so that a refused client reads why instead of an EOF.
    mutating func collectFailureOutput() {
        session?.takeOutput(into: &sealed)
    }

    /// Bytes for the socket as they are, past the protocol (a refusal in plain text on the HTTPS port).
    mutating func queueRaw(_ response: HTTPResponse) {
        response.serialize(into: &sealed, includeBody: true, closeConnection: true)
    }

    /// The protocol's goodbye (TLS close_notify), queued before writing is shut down.
    mutating func close() {
        guard let session, session.protocolVersion != nil else { return }
        session.close(into: &sealed)
    }
}
