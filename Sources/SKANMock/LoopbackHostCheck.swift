import HTTPCore

/// DNS rebinding guard: a web page on another site can make a browser send requests to a server on
/// 127.0.0.1 under the attacker's host name. When skan-mock listens on loopback only, the console,
/// its event stream and every admin route, reads included, answer only to loopback host names
/// (`localhost`, `*.localhost`, 127.0.0.0/8, `[::1]`, any port); others get 421 (`AdminGuard`).
/// Singular's endpoints are unaffected.
struct LoopbackHostCheck: Sendable {
    static func isLoopback(listenHost: String) -> Bool {
        listenHost == "localhost" || listenHost == "::1" || listenHost.hasPrefix("127.")
    }

    /// `Host` names a loopback host; a request without `Host` (HTTP/1.0 tools) is let through: a
    /// browser always sends one.
    static func isAllowed(host header: String?) -> Bool {
        guard let header, !header.isEmpty else { return true }
        var name = Substring(header.lowercased())
        if name.hasPrefix("[") {
            guard let close = name.firstIndex(of: "]") else { return false }
            return name[name.index(after: name.startIndex)..<close] == "::1"
        }
        if let colon = name.lastIndex(of: ":") { name = name[..<colon] }
        if name.hasSuffix(".") { name = name.dropLast() }
        if name == "localhost" || name.hasSuffix(".localhost") { return true }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "127" else { return false }
        return parts.allSatisfy { part in
            guard !part.isEmpty, part.count <= 3, part.allSatisfy(\.isNumber), let value = Int(part) else {
                return false
            }
            return value <= 255
        }
    }

    static func misdirected() -> HTTPResponse {
        .jsonError(
            "this server listens on loopback only: use http://localhost or http://127.0.0.1 (a request under another host name could be DNS rebinding)",
            status: HTTPStatus(code: 421, reason: "Misdirected Request"))
    }
}
