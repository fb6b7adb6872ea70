/// `--upstream URL --upstream-mode shadow|proxy`: the real service to compare the model with.
public struct UpstreamOptions: Sendable, Equatable {
    /// `shadow`: the client gets the model's answer, the upstream's is recorded beside it.
    /// `proxy`: the client gets the upstream's answer, the model's is recorded beside it.
    public enum Mode: String, Sendable, CaseIterable {
        case shadow, proxy
    }

    /// `https://host[:port]` (or `http://` for tests), with no path, query or trailing slash.
    public var baseURL: String
    public var mode: Mode
    public var timeoutSeconds: Double
    /// A CA certificate (PEM) to trust for the upstream instead of the system's store.
    public var caFile: String?
    /// Requests sent to the upstream at once, and how many more may wait: past that a shadowed
    /// request is not sent (`upstream_skipped`), so a slow upstream costs a bounded queue.
    public var maxInFlight = 64
    public var maxWaiting = 4096

    public struct ParseError: Error, CustomStringConvertible {
        public let description: String
    }

    public init(baseURL: String, mode: Mode = .shadow, timeoutSeconds: Double = 5, caFile: String? = nil)
        throws(ParseError)
    {
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        let scheme = base.hasPrefix("https://") ? "https://" : base.hasPrefix("http://") ? "http://" : nil
        guard let scheme else {
            throw ParseError(description: "--upstream \(baseURL): expected http://HOST[:PORT] or https://HOST[:PORT]")
        }
        let rest = base.dropFirst(scheme.count)
        guard !rest.isEmpty, !rest.contains("/"), !rest.contains("?"), !rest.contains("#"), !rest.contains(" "),
            !rest.contains("@")
        else {
            throw ParseError(
                description:
                    "--upstream \(baseURL): give the service's base only (scheme, host, port), e.g. https://sdk-api-v1.singular.net; the request's own path is added"
            )
        }
        guard timeoutSeconds > 0, timeoutSeconds <= 60 else {
            throw ParseError(
                description: "--upstream-timeout \(timeoutSeconds): must be more than 0 and at most 60 seconds")
        }
        self.baseURL = base
        self.mode = mode
        self.timeoutSeconds = timeoutSeconds
        self.caFile = caFile
    }
}
