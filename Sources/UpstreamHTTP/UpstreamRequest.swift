/// One request for the upstream: what skan-mock received, addressed to the upstream's base URL.
public struct UpstreamRequest: Sendable {
    public var method: String
    /// Where it goes: scheme, host and port (`https://sdk-api-v1.singular.net`).
    public var origin: String
    /// The path and query as the upstream receives them (`/api/v1/evt?n=...`).
    public var target: String
    /// Headers as `Name: value` lines; never the admin token (the caller picks them).
    public var headers: [String]
    public var body: [UInt8]
    /// Seconds for the whole exchange, connecting included, and waiting for a free connection:
    /// an answer is never awaited longer than this after `send`.
    public var timeoutSeconds: Double
    /// When `send` queued it (monotonic nanoseconds), set by the client.
    var queuedAtNanos: UInt64 = 0

    /// The whole URL.
    public var url: String { origin + target }
    /// What it holds while it waits: counted against the client's bound on waiting bytes.
    var heldBytes: Int { target.utf8.count + body.count }

    public init(
        method: String, origin: String, target: String, headers: [String] = [], body: [UInt8] = [],
        timeoutSeconds: Double
    ) {
        self.method = method
        self.origin = origin
        self.target = target
        self.headers = headers
        self.body = body
        self.timeoutSeconds = timeoutSeconds
    }
}

/// What the upstream did with a request.
public enum UpstreamResult: Sendable, Equatable {
    /// It answered: the status and the body as received, and the time from sending to the end.
    case response(status: Int, body: [UInt8], durationMicros: Int64)
    /// No answer within the timeout.
    case timeout(durationMicros: Int64)
    /// No answer at all (refused, reset, name or certificate failure), with libcurl's reason.
    case unreachable(reason: String, durationMicros: Int64)
    /// Not sent, and why. One outcome, whatever the cause: the server's journal calls it
    /// `not_sent` (its finding `upstream_skipped`).
    case notSent(UpstreamNotSent)
    /// The answer's body grew past `limit` bytes: the transfer was stopped, nothing of it kept.
    case tooLarge(limit: Int, durationMicros: Int64)

    public var durationMicros: Int64 {
        switch self {
        case .response(_, _, let micros), .timeout(let micros), .unreachable(_, let micros),
            .tooLarge(_, let micros):
            micros
        case .notSent(.waitedPastTimeout(let micros)): micros
        case .notSent: 0
        }
    }
}

/// Why a request was never sent to the upstream.
public enum UpstreamNotSent: Sendable, Equatable {
    /// As many requests as the client keeps were already waiting (an upstream slower than the
    /// traffic must not make the server hold an ever longer queue).
    case queueFull(waiting: Int)
    /// The server was stopping when its turn came.
    case stopping
    /// It waited its whole timeout for a free connection (an upstream slower than the traffic);
    /// sending it then would keep its journal entry waiting past the timeout.
    case waitedPastTimeout(micros: Int64)
}
