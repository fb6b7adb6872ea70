/// The bounds that keep one client from hurting the others. Each breach has its own status.
public struct HTTPLimits: Sendable {
    /// Longest request line (method, target, version) before `414 URI Too Long`.
    public var maxRequestLineBytes = 8 * 1024
    /// Largest header section (after the request line) before `431`.
    public var maxHeaderBytes = 16 * 1024
    /// Most header lines before `431`.
    public var maxHeaderCount = 100
    /// Largest request body, however it is framed, before `413`.
    public var maxBodyBytes = 1024 * 1024
    /// Time from the first byte of a request to the end of its headers before `408` and close.
    public var headerTimeoutSeconds: Double = 10
    /// Time from the end of the headers to the end of the body before `408` and close. The whole
    /// body must arrive in this time: a body trickling in a byte at a time does not extend it.
    public var bodyTimeoutSeconds: Double = 30
    /// Time a keep-alive connection may sit between requests before it is closed.
    public var idleTimeoutSeconds: Double = 30
    /// Time a response may wait for a client that stopped reading before the connection is dropped.
    public var writeTimeoutSeconds: Double = 30
    /// Open connections beyond which new ones get `503` and are closed.
    public var maxConnections = 1024
    /// Answers waiting for a client that does not read them before its connection takes no
    /// further request (and reads none) until the client catches up.
    public var maxPendingOutputBytes = 1024 * 1024
    /// Answers waiting for clients that do not read them, all connections together. Past it, a
    /// connection whose client left output unsent takes no further request and an event stream
    /// behind is closed, until the backlog drains; any other gathers at most 64 KiB at a time.
    public var maxHeldOutputBytes = 64 * 1024 * 1024

    /// Requests read from one connection ahead of serving them: one whole request of the largest
    /// size, and a read's worth. Pipelining without reading the answers used to be read without
    /// limit (up to 1 GiB), whenever the client wrote as fast as the server read.
    public var maxReadAheadBytes: Int { maxRequestLineBytes + maxHeaderBytes + maxBodyBytes + 16 * 1024 }

    public init() {}
}
