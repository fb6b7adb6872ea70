/// The upstream as the request pipeline sees it: an exchange goes out, exactly one reply comes
/// back, and a stop ends every exchange still open. libcurl's client is the real one
/// (`CurlUpstreamTransport`); the tests' in-memory twin answers when the test says so, in any
/// order, so that proxy, shadow, timeouts and a stop's drain are tested in process, without
/// sockets or sleeps.
protocol UpstreamTransport: Sendable {
    /// Sends `exchange`; `completion` runs once, on another thread, or at once on the caller's
    /// when the exchange is not sent (a full queue, a stop).
    func send(_ exchange: UpstreamForward, completion: @escaping @Sendable (UpstreamReply) -> Void)

    /// Sends nothing more, and waits at most `seconds` until every exchange sent has had its
    /// reply and each completion has run.
    func stop(waitingAtMost seconds: Double)
}

/// One request as it goes to the upstream: what a client sent skan-mock, addressed to the
/// upstream's base URL with the headers that go along (`Upstream` chooses them).
struct UpstreamForward: Sendable, Equatable {
    var method: String
    /// The upstream's base: scheme, host and port.
    var origin: String
    /// Singular's path and the query.
    var target: String
    /// `Name: value` lines.
    var headers: [String]
    var body: [UInt8]
    /// Seconds for the whole exchange, waiting for a free connection included.
    var timeoutSeconds: Double

    /// The whole URL.
    var url: String { origin + target }
}
