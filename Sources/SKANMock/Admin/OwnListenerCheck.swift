/// Whether a URL's host and port lead back to this server's own listeners: an `--upstream` that
/// does would send every request to itself, which sends it on again, without end (issue 30.9).
/// Host names are compared as written, not resolved: `localhost`, `127.x.x.x`, `::1` and the
/// wildcard addresses are taken as this machine, and so are its interfaces' addresses when it
/// listens on all of them.
enum OwnListenerCheck {
    /// True when `host:port` reaches a listener of this server: one of `ports`, bound to
    /// `listenHost`; `localAddresses` are this machine's interface addresses.
    static func reaches(
        host: String, port: Int, listenHost: String, ports: [Int], localAddresses: [String]
    ) -> Bool {
        guard ports.contains(port) else { return false }
        let target = normalized(host)
        let listen = normalized(listenHost)
        if target == listen { return true }
        // Connecting to 0.0.0.0 or :: reaches this machine.
        let targetIsThisMachine = isLoopback(target) || isWildcard(target)
        if isWildcard(listen) { return targetIsThisMachine || localAddresses.map(normalized).contains(target) }
        if isLoopback(listen) { return targetIsThisMachine }
        return false
    }

    static func normalized(_ host: String) -> String {
        var text = host.lowercased()
        if text.hasPrefix("[") && text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        if text.hasSuffix(".") { text.removeLast() }
        if text.hasPrefix("::ffff:") { text = String(text.dropFirst(7)) }
        return text
    }

    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host.hasSuffix(".localhost") || host.hasPrefix("127.") || host == "::1"
            || host == "0:0:0:0:0:0:0:1"
    }

    static func isWildcard(_ host: String) -> Bool {
        host == "0.0.0.0" || host == "::" || host == "0:0:0:0:0:0:0:0" || host == "0"
    }
}
