import HTTPCore
import SystemPOSIX

/// DNS rebinding guard on every bind: a web page on another site can make a browser send requests
/// to this server under the attacker's own host name (rebound to 127.0.0.1, or to the machine's LAN
/// address). Whatever the bind, the console, its event stream and every admin route answer only a
/// `Host` that names this machine (`AdminGuard`); others get 421. Singular's endpoints are
/// unaffected: an app under test may call them by any name.
///
/// - Every bind: loopback names (`LoopbackHostCheck`) and the names given with `--allowed-host`
///   (`SKAN_MOCK_ALLOWED_HOSTS`: a Compose service's name, a QA box's DNS name).
/// - Bound beyond loopback, also: the listen address, the interface addresses (read again when a
///   `Host` is none of the names: a laptop changes networks), the machine's host name and
///   `NAME.local`, any `*.local` (Bonjour: an attacker's page cannot choose what they resolve to),
///   and the `--tls-name`s.
struct AdminHostCheck: Sendable {
    let loopbackOnly: Bool
    /// Lowercase names and canonical addresses answered besides loopback's.
    let names: Set<String>
    /// The machine's interface addresses, now.
    let interfaceAddresses: @Sendable () -> [String]

    init(
        listenHost: String, allowedHosts: [String] = [], tlsNames: [String] = [],
        hostName: String? = System.hostName(),
        interfaceAddresses: @escaping @Sendable () -> [String] = { System.interfaceAddresses().map(\.address) }
    ) {
        loopbackOnly = LoopbackHostCheck.isLoopback(listenHost: listenHost)
        var given = allowedHosts
        if !loopbackOnly {
            given += [listenHost] + tlsNames
            if let hostName {
                given.append(hostName)
                if !hostName.contains(".") { given.append(hostName + ".local") }
            }
        }
        names = Set(given.compactMap(Self.canonical(name:)))
        self.interfaceAddresses = interfaceAddresses
    }

    /// A request without `Host` (HTTP/1.0 tools) is let through: a browser always sends one.
    func isAllowed(host header: String?) -> Bool {
        guard let header, !header.isEmpty else { return true }
        if LoopbackHostCheck.isAllowed(host: header) { return true }
        guard let name = Self.name(inHost: header) else { return false }
        if names.contains(name) { return true }
        guard !loopbackOnly else { return false }
        if name.hasSuffix(".local"), name.count > ".local".count { return true }
        guard System.parseIPAddress(name) != nil else { return false }
        return interfaceAddresses().contains { Self.canonical(name: $0) == name }
    }

    /// The name a `Host` header names, lowercase, without its port or a final dot; an IPv6
    /// address without its brackets, an address in canonical form. Nil when malformed.
    static func name(inHost header: String) -> String? {
        var text = Substring(header.lowercased())
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            text = text[text.index(after: text.startIndex)..<close]
        } else if let colon = text.lastIndex(of: ":") {
            text = text[..<colon]
        }
        return canonical(name: String(text))
    }

    /// A name as given on the command line (`skan-mock`, `Box.Example.`, `fe80::1`, `[::2]:8080`,
    /// `name:8080`) in the form `name(inHost:)` gives; nil when empty.
    static func canonical(name given: String) -> String? {
        var text = given.lowercased()
        if let address = System.parseIPAddress(text) { return address.text }
        if text.hasPrefix("[") || text.contains(":") { return name(inHost: text) }
        while text.hasSuffix(".") { text.removeLast() }
        guard !text.isEmpty else { return nil }
        return System.parseIPAddress(text)?.text ?? text
    }

    /// The 421, saying which names are answered and how to add one.
    func misdirected(host header: String) -> HTTPResponse {
        let which =
            loopbackOnly
            ? "this server listens on loopback only: use http://localhost or http://127.0.0.1"
            : "Host \(header) is none of this machine's names or addresses (localhost, its interface addresses, its host name, *.local, --tls-name)"
        return .jsonError(
            "\(which); a request under another host name could be DNS rebinding. To use this name, start the server with --allowed-host NAME (SKAN_MOCK_ALLOWED_HOSTS)",
            status: HTTPStatus(code: 421, reason: "Misdirected Request"))
    }
}
