import HTTPCore

/// Who may use the admin API (and the console), decided before the token: a mock on a laptop is
/// reachable by web pages in its user's browser and, bound beyond loopback, by the whole network.
///
/// - Any bind: every admin route answers only a `Host` that names this machine (DNS rebinding,
///   `AdminHostCheck`: bound to loopback, loopback names only), or one given with `--allowed-host`;
///   others get 421.
/// - Any bind: an admin change (POST, PUT, PATCH, DELETE) from a page of another origin is refused
///   (403): its `Origin` is not this server, or `Sec-Fetch-Site` says it crossed sites. A change
///   with a body from a browser must be JSON, which no page can send to another origin without a
///   preflight that this server never grants (415).
/// - Bound beyond loopback with no `--admin-token` (the iPhone set-up): changes are taken from
///   this machine's own addresses only (403 for other peers), unless `--admin-open`; reads, the
///   console and the phone set-up pages stay open, so the phone flow is still one command.
struct AdminGuard: Sendable {
    let hosts: AdminHostCheck
    /// Changes only from loopback peers.
    let changesFromThisMachineOnly: Bool

    /// `hosts` nil: this machine's names for `listenHost`, none added.
    init(listenHost: String, hasToken: Bool, adminOpen: Bool, hosts: AdminHostCheck? = nil) {
        self.hosts = hosts ?? AdminHostCheck(listenHost: listenHost)
        changesFromThisMachineOnly =
            !LoopbackHostCheck.isLoopback(listenHost: listenHost) && !hasToken && !adminOpen
    }

    /// The refusal for `request`, or nil when it may go on.
    func refusal(for request: HTTPRequest) -> HTTPResponse? {
        let host = request.headers["Host"]
        if !hosts.isAllowed(host: host) {
            return hosts.misdirected(host: host ?? "")
        }
        guard Self.isChange(request.method) else { return nil }
        if let reason = Self.crossOrigin(request) {
            return .jsonError("admin change refused: \(reason)", status: .forbidden)
        }
        if Self.fromBrowser(request), !request.body.isEmpty, !Self.isJSON(request.headers["Content-Type"]) {
            return .jsonError(
                "admin change refused: a request with an Origin or Sec-Fetch-Site header is a browser's, and a browser's body must be sent as Content-Type: application/json (scripts that send neither header need no Content-Type)",
                status: .unsupportedMediaType
            )
        }
        if changesFromThisMachineOnly && !Self.isLoopbackPeer(request.remoteAddress) {
            return .jsonError(
                "admin change refused: this server listens beyond loopback without an admin token, so admin changes are taken from its own machine only (in Docker, the host's requests come from Docker's network, not this machine); start it with --admin-token TOKEN, or SKAN_MOCK_ADMIN_TOKEN=TOKEN in the environment (Docker's -e, Compose's shell or .env), and send Authorization: Bearer TOKEN; or with --admin-open (SKAN_MOCK_ADMIN_OPEN=1) to take them from anyone, only where the port is published on loopback",
                status: .forbidden)
        }
        return nil
    }

    static func isChange(_ method: HTTPMethod) -> Bool {
        method == .post || method == .put || method == .patch || method == .delete
    }

    /// Why the request comes from a page of another origin, or nil.
    static func crossOrigin(_ request: HTTPRequest) -> String? {
        if let site = request.headers["Sec-Fetch-Site"]?.lowercased(), site != "same-origin", site != "none" {
            return "Sec-Fetch-Site is \(site): a page of another site sent it"
        }
        guard let origin = request.headers["Origin"] else { return nil }
        let host = request.headers["Host"]?.lowercased() ?? ""
        let own = ["http://" + host, "https://" + host]
        if origin == "null" || !own.contains(origin.lowercased()) {
            return "Origin \(origin) is not this server (\(host.isEmpty ? "no Host" : host))"
        }
        return nil
    }

    /// Browsers send these; curl, URLSession and the test clients do not. `Sec-Fetch-Mode` alone is
    /// not a browser: Node's built-in `fetch` sends it (`cors`) and nothing else of the kind, and a
    /// browser that sends it sends `Sec-Fetch-Site` with it, so a Node script's string body (sent as
    /// text/plain) is taken as curl's is.
    static func fromBrowser(_ request: HTTPRequest) -> Bool {
        request.headers["Origin"] != nil || request.headers["Sec-Fetch-Site"] != nil
    }

    static func isJSON(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let media = contentType.split(separator: ";").first?.trimmingASCIIWhitespace().lowercased() ?? ""
        return media == "application/json" || (media.hasPrefix("application/") && media.hasSuffix("+json"))
    }

    /// `127.x.x.x:port`, `[::1]:port` or an IPv4-mapped loopback: a client on this machine.
    static func isLoopbackPeer(_ remote: String) -> Bool {
        remote.hasPrefix("127.") || remote.hasPrefix("[::1]") || remote.hasPrefix("[::ffff:127.")
    }

    /// The start-up line when changes are limited to this machine.
    static let startupNotice =
        "skan-mock: listening beyond loopback without --admin-token: admin changes (model, faults, clock, reset) are taken from this machine only; reads, the console and the phone set-up stay open (--admin-token TOKEN, or --admin-open, to change from elsewhere)"
}
