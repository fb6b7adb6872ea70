/// The value of an endpoint key (`NSAdvertisingAttributionReportEndpoint`,
/// `AttributionCopyEndpoint`) read once into its parts, so each rule asks one question of it:
/// the scheme, the host, and whatever Apple's `https://example.com` form has no place for.
/// Apple builds the well-known URL from the domain alone, so a path, query or port is not used.
public struct AttributionEndpoint: Sendable, Equatable {
    public var scheme: String
    public var userInfo: String?
    /// Lower-cased; an IPv6 literal without its brackets.
    public var host: String
    public var port: String?
    /// Empty or `/` for an origin.
    public var path: String
    public var query: String?
    public var fragment: String?

    /// `text` as an absolute URL with a host, or nil.
    public init?(_ text: String) {
        guard let colon = text.firstIndex(of: ":"), text[colon...].hasPrefix("://") else { return nil }
        let scheme = text[..<colon]
        guard let first = scheme.first, first.isASCII, first.isLetter,
            scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else { return nil }
        self.scheme = scheme.lowercased()
        var rest = text[text.index(colon, offsetBy: 3)...]
        if let hash = rest.firstIndex(of: "#") {
            fragment = String(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        }
        if let question = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: question)...])
            rest = rest[..<question]
        }
        let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        path = String(rest[authorityEnd...])
        var authority = rest[..<authorityEnd]
        if let at = authority.lastIndex(of: "@") {
            userInfo = String(authority[..<at])
            authority = authority[authority.index(after: at)...]
        }
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = authority[authority.index(after: authority.startIndex)..<close].lowercased()
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return nil }
                port = String(after.dropFirst())
            }
        } else {
            if let portColon = authority.lastIndex(of: ":") {
                port = String(authority[authority.index(after: portColon)...])
                authority = authority[..<portColon]
            }
            host = authority.lowercased()
        }
        guard !host.isEmpty, !host.contains(where: \.isWhitespace) else { return nil }
    }

    /// `https://host` (brackets around an IPv6 literal), what Apple's form asks for.
    public var origin: String {
        "https://" + (host.contains(":") ? "[\(host)]" : host)
    }

    /// Whether the host is this machine, a private or link-local address, or a name only a local
    /// network resolves (`.local`, `.localhost`, `.home.arpa`, `.internal`, `.lan`): where a QA
    /// build points its copies at skan-mock's HTTPS listener, never a release build.
    public var isLocal: Bool {
        if host == "localhost" { return true }
        for suffix in [".localhost", ".local", ".home.arpa", ".internal", ".lan"] where host.hasSuffix(suffix) {
            return true
        }
        if let v4 = ipv4 {
            switch (v4.0, v4.1) {
            case (127, _), (10, _), (192, 168), (169, 254), (0, _): return true
            case (172, let b) where (16...31).contains(b): return true
            case (100, let b) where (64...127).contains(b): return true
            default: return false
            }
        }
        if host.contains(":") {
            return host == "::1" || host.hasPrefix("fc") || host.hasPrefix("fd") || host.hasPrefix("fe8")
                || host.hasPrefix("fe9") || host.hasPrefix("fea") || host.hasPrefix("feb")
        }
        return false
    }

    /// Whether the host is an IP address rather than a domain name.
    public var isAddress: Bool { ipv4 != nil || host.contains(":") }

    private var ipv4: (Int, Int, Int, Int)? {
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        let numbers = parts.compactMap { $0.count <= 3 ? Int($0) : nil }
        guard numbers.count == 4, numbers.allSatisfy({ (0...255).contains($0) }) else { return nil }
        return (numbers[0], numbers[1], numbers[2], numbers[3])
    }

    /// The registrable domain as far as can be told without the Public Suffix List: the last two
    /// labels, or three under a two-letter country code's `co`, `com`, `org`, `net`, `ac`, `gov`,
    /// `edu` (`example.co.uk`). Apple posts to the registrable part and ignores subdomains.
    public var registrableDomain: String {
        guard !isAddress else { return host }
        let labels = host.split(separator: ".")
        guard labels.count > 2 else { return host }
        let secondLevel: Set<Substring> = ["co", "com", "org", "net", "ac", "gov", "edu"]
        let keep = labels.last!.count == 2 && secondLevel.contains(labels[labels.count - 2]) ? 3 : 2
        return labels.suffix(keep).joined(separator: ".")
    }
}
