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
    /// The targets and bodies of the requests waiting, at most (bodies may be up to 1 MiB each).
    public var maxWaitingBytes = 64 << 20
    /// Shadow mode's entries waiting for the upstream's reply (or for an earlier one's, to keep
    /// arrival order), in count and bytes: past either the oldest is journaled as given up.
    public var maxShadowEntries = ArrivalOrder.Limits.standard.entries
    public var maxShadowBytes = ArrivalOrder.Limits.standard.bytes

    var shadowHeld: ArrivalOrder.Limits { ArrivalOrder.Limits(entries: maxShadowEntries, bytes: maxShadowBytes) }

    /// Why `--upstream` or `--upstream-timeout` cannot be used: which, its value, and why.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        public enum Option: String, Sendable {
            case url = "--upstream"
            case timeout = "--upstream-timeout"
        }

        public var option: Option
        public var value: String
        public var reason: String

        public init(_ option: Option, _ value: String, _ reason: String) {
            self.option = option
            self.value = value
            self.reason = reason
        }

        public var description: String { "\(option.rawValue) \(value): \(reason)" }
    }

    /// The host as written in the URL, without IPv6 brackets, and the port (80 or 443 when the
    /// URL gives none): what start-up compares with its own listeners.
    public let host: String
    public let port: Int
    /// Whether the URL is `https://`, the only scheme `--upstream-ca` means anything for.
    public var isHTTPS: Bool { baseURL.hasPrefix("https://") }

    /// The smallest timeout libcurl can keep: it counts whole milliseconds, and 0 means none.
    public static let minimumTimeoutSeconds = 0.001

    public init(baseURL: String, mode: Mode = .shadow, timeoutSeconds: Double = 5, caFile: String? = nil)
        throws(ParseError)
    {
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        let scheme = base.hasPrefix("https://") ? "https://" : base.hasPrefix("http://") ? "http://" : nil
        guard let scheme else {
            throw ParseError(.url, baseURL, "expected http://HOST[:PORT] or https://HOST[:PORT]")
        }
        let rest = base.dropFirst(scheme.count)
        guard !rest.isEmpty, !rest.contains("/"), !rest.contains("?"), !rest.contains("#"), !rest.contains("@")
        else {
            throw ParseError(
                .url, baseURL,
                "give the service's base only (scheme, host, port), e.g. https://sdk-api-v1.singular.net; the request's own path is added"
            )
        }
        let (host, port): (String, Int)
        do {
            (host, port) = try Self.authority(rest, defaultPort: scheme == "https://" ? 443 : 80)
        } catch {
            throw ParseError(.url, baseURL, error.reason)
        }
        guard timeoutSeconds.isFinite, timeoutSeconds >= Self.minimumTimeoutSeconds, timeoutSeconds <= 60 else {
            throw ParseError(
                .timeout, "\(timeoutSeconds)",
                "must be at least 0.001 (1 ms, the least libcurl can keep) and at most 60 seconds"
            )
        }
        self.baseURL = base
        self.mode = mode
        self.timeoutSeconds = timeoutSeconds
        self.caFile = caFile
        self.host = host
        self.port = port
    }

    /// `HOST`, `HOST:PORT`, `[IPv6]` or `[IPv6]:PORT`, checked as libcurl would read it, so a URL
    /// it would refuse at the first request is refused at start.
    static func authority(_ text: Substring, defaultPort: Int) throws(ParseError) -> (String, Int) {
        if let bad = text.unicodeScalars.first(where: { $0.value <= 0x20 || $0.value >= 0x7F }) {
            let shown = bad == " " ? "a space" : "the character U+\(String(bad.value, radix: 16, uppercase: true))"
            throw ParseError(.url, String(text), "\(shown) has no place in a host name")
        }
        var host: Substring
        var portText: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else {
                throw ParseError(.url, String(text), "an IPv6 address opened with [ is not closed with ]")
            }
            host = text[text.index(after: text.startIndex)..<close]
            let after = text[text.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw ParseError(.url, String(text), "expected :PORT after ]") }
                portText = after.dropFirst()
            }
            guard host.contains(":"), host.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else {
                throw ParseError(.url, String(text), "[\(host)] is not an IPv6 address")
            }
        } else {
            let colons = text.filter { $0 == ":" }.count
            guard colons <= 1 else {
                throw ParseError(.url, String(text), "an IPv6 address goes in brackets, e.g. http://[::1]:8080")
            }
            if let colon = text.firstIndex(of: ":") {
                host = text[..<colon]
                portText = text[text.index(after: colon)...]
            } else {
                host = text
            }
            guard host.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." || $0 == "_" }) else {
                throw ParseError(.url, String(text), "\(host) is not a host name")
            }
        }
        guard !host.isEmpty else { throw ParseError(.url, String(text), "the host is missing") }
        guard let portText else { return (String(host), defaultPort) }
        guard !portText.isEmpty, portText.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw ParseError(.url, String(text), "the port \"\(portText)\" is not a number")
        }
        guard portText.count <= 5, let port = Int(portText), (1...65535).contains(port) else {
            throw ParseError(.url, String(text), "port \(portText) is outside 1...65535")
        }
        return (String(host), port)
    }
}
