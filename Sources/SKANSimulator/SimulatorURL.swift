/// The `--url` of `skan-mock simulate`: a `SINGULAR_API_URL`-style base (`http://host:port/base`)
/// to which the simulator appends `/api/v2/conversion_value` and the S2S paths, or a whole
/// `SINGULAR_API_URL` (the endpoint's path is taken off). Plain HTTP only: the
/// simulator's client has no TLS, and a server started with `--https-port` still answers plain HTTP
/// on `--port`, so that is the URL to give it.
public struct SimulatorURL: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: Int
    /// Empty, or a path starting with `/` and without a trailing `/`.
    public var basePath: String

    public struct Invalid: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    public init(parsing text: String) throws(Invalid) {
        guard let schemeEnd = text.firstRange(of: "://") else {
            throw Invalid(description: "'\(text)' is not a URL (expected http://host:port)")
        }
        let scheme = text[..<schemeEnd.lowerBound].lowercased()
        guard scheme == "http" else {
            throw Invalid(
                description:
                    "'\(text)': the simulator sends plain HTTP only; give it the server's http:// address (its --port, which a server with --https-port serves too)"
            )
        }
        let rest = text[schemeEnd.upperBound...]
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        let authority = rest[..<slash]
        var path = String(rest[slash...])
        if let query = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = String(path[..<query]) }
        while path.hasSuffix("/") { path.removeLast() }
        // A `SINGULAR_API_URL` value is the whole endpoint URL: its base is what comes before.
        if let endpoint = Self.endpointPaths.first(where: { path.hasSuffix($0) }) {
            path.removeLast(endpoint.count)
        }
        var host = Substring(authority)
        var portText: Substring?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else {
                throw Invalid(description: "'\(text)': unclosed [ in the host")
            }
            let after = host[host.index(after: close)...]
            if after.hasPrefix(":") {
                portText = after.dropFirst()
            } else if !after.isEmpty {
                throw Invalid(description: "'\(text)': unexpected '\(after)' after the host")
            }
            host = host[host.index(after: host.startIndex)..<close]
        } else if let colon = host.lastIndex(of: ":") {
            portText = host[host.index(after: colon)...]
            host = host[..<colon]
        }
        guard !host.isEmpty else { throw Invalid(description: "'\(text)': no host") }
        var port = 80
        if let portText {
            guard let value = Int(portText), (1...65535).contains(value) else {
                throw Invalid(description: "'\(text)': the port must be in 1...65535")
            }
            port = value
        }
        self.host = String(host)
        self.port = port
        self.basePath = path
    }

    /// Singular's endpoint paths, which a `SINGULAR_API_URL` ends with and a base does not.
    static let endpointPaths = [
        "/api/v1/conversion_value", "/api/v2/conversion_value", "/api/v1/launch", "/api/v1/evt", "/api/v2/launch",
        "/api/v2/evt"
    ]

    public var description: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "http://\(shownHost):\(port)\(basePath)"
    }
}
