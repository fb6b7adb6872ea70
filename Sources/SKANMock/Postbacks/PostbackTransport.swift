import HTTPCore

/// How the sender POSTs one postback: over a socket in the server (`SocketPostbackTransport`), an
/// in-memory twin in tests, so that a test can hold a send in flight and stop the server under it.
protocol PostbackTransport: Sendable {
    /// POSTs `body` to `target`; `admit` is asked about the address a name resolved to, just before
    /// the connect, and refuses with its reason. Throws why there was no answer.
    func post(to target: PostbackTarget, body: [UInt8], timeout: Double, admit: @escaping @Sendable (String) -> String?)
        throws(HTTPProbe.Failure) -> (status: Int, body: [UInt8])
}

/// The sender's real transport: one HTTP/1.1 exchange on its own connection (`HTTPProbe`).
struct SocketPostbackTransport: PostbackTransport {
    func post(to target: PostbackTarget, body: [UInt8], timeout: Double, admit: @escaping @Sendable (String) -> String?)
        throws(HTTPProbe.Failure) -> (status: Int, body: [UInt8])
    {
        try HTTPProbe.post(
            host: target.host, port: target.port, path: target.path, headers: [("Content-Type", "application/json")],
            body: body, timeout: timeout, admit: admit)
    }
}
