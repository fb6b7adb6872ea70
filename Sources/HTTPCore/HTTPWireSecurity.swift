/// What sits between a connection's socket and HTTP: nothing for plain HTTP, TLS for HTTPS. The
/// connection keeps doing its own non-blocking reads and writes and its own parsing, limits and
/// timeouts; a session only turns wire bytes into HTTP bytes and back (TLS over memory buffers),
/// so both schemes share one code path. HTTPCore knows no TLS library: the app brings one.
///
/// One session per connection, used only on that connection's queue.
public protocol HTTPWireSession: AnyObject {
    /// Bytes read from the socket; what they decrypt to is appended to `plaintext`.
    func receive(_ wire: UnsafeRawBufferPointer, into plaintext: inout [UInt8]) -> HTTPWireStatus
    /// Encrypts `plaintext` and appends the result to `wire`; false when the session is broken.
    func send(_ plaintext: UnsafeRawBufferPointer, into wire: inout [UInt8]) -> Bool
    /// Bytes the protocol itself must send (handshake messages, alerts), appended to `wire`.
    func takeOutput(into wire: inout [UInt8])
    /// The negotiated protocol (`TLSv1.3`) once the handshake is done; nil before.
    var protocolVersion: String? { get }
    /// The protocol's clean goodbye (TLS close_notify), appended to `wire`, sent before the
    /// connection shuts down writing.
    func close(into wire: inout [UInt8])
}

extension HTTPWireSession {
    /// A protocol without a goodbye of its own sends nothing.
    public func close(into wire: inout [UInt8]) {}
}

/// What a session made of the bytes it received.
public enum HTTPWireStatus: Sendable, Equatable {
    /// Fine; maybe plaintext, maybe only handshake progress.
    case ok
    /// The peer closed the session cleanly.
    case closed
    /// Not the protocol at all (plain HTTP or garbage on the HTTPS port).
    case notThisProtocol
    /// A broken handshake or record: the connection is closed.
    case failed(String)
}

/// Makes the session of each accepted connection (a TLS context, typically).
public protocol HTTPWireSecurity: Sendable {
    func makeSession() -> (any HTTPWireSession)?
    /// What a client that spoke plain HTTP to this port is told before the connection closes.
    var plaintextRefusal: String { get }
}
