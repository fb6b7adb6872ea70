import HTTPCore

/// Loopback's host names, for the DNS rebinding guard (`AdminHostCheck`): `localhost`,
/// `*.localhost`, 127.0.0.0/8, `[::1]`, any port. When skan-mock listens on loopback only, the
/// console, its event stream and every admin route answer only to these (and `--allowed-host`).
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
}
