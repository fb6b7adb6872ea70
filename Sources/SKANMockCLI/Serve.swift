import ArgumentParser
import Dispatch
import SKANMock
import SystemPOSIX

/// `skan-mock serve` (the default subcommand): runs the server until SIGTERM or SIGINT.
struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the server (the default subcommand).",
        discussion: """
            Each option can also be set in the environment (for containers); the command line wins. \
            On start, one line is printed: "skan-mock listening on http://HOST:PORT". SIGTERM and \
            SIGINT stop accepting, finish requests in flight, flush the journal and exit 0; SIGHUP \
            reloads the model file, as does a change of the file (a bad file keeps the model in use).
            """
    )

    @Option(help: ArgumentHelp("Address to listen on. [env: SKAN_MOCK_HOST, default: 127.0.0.1]", valueName: "address"))
    var host: String?

    @Option(
        help: ArgumentHelp(
            "Port to listen on; 0 picks a free one. [env: SKAN_MOCK_PORT, default: 8080]", valueName: "port"))
    var port: Int?

    @Option(
        help: ArgumentHelp(
            "Conversion model file. [env: SKAN_MOCK_MODEL, default: the bundled testing model]", valueName: "file"))
    var model: String?

    @Option(
        help: ArgumentHelp(
            "Write the journal as JSON Lines to this file, or - for standard output. [env: SKAN_MOCK_LOG]",
            valueName: "file"))
    var log: String?

    @Option(
        help: ArgumentHelp(
            "Journal entries kept in memory; the oldest are dropped first. [env: SKAN_MOCK_JOURNAL_SIZE, default: 10000]",
            valueName: "n"))
    var journalSize: Int?

    @Option(
        help: ArgumentHelp(
            "Bytes of journal lines kept in memory (K, M, G suffixes); the oldest entries are dropped first. [env: SKAN_MOCK_JOURNAL_BYTES, default: 64M]",
            valueName: "bytes"))
    var journalBytes: String?

    @Option(
        help: ArgumentHelp(
            "Devices whose state is kept; the least recently seen are dropped. [env: SKAN_MOCK_DEVICE_CAPACITY, default: 100000]",
            valueName: "n"))
    var deviceCapacity: Int?

    @Option(
        help: ArgumentHelp(
            "Open connections per port beyond which new ones get 503; the open-file limit is raised to fit them. [env: SKAN_MOCK_MAX_CONNECTIONS, default: 1024]",
            valueName: "n"))
    var maxConnections: Int?

    @Flag(help: "Answer requests with validation findings with {\"status\":\"error\"}. [env: SKAN_MOCK_STRICT=1]")
    var strict = false

    @Option(
        help: ArgumentHelp(
            "Require 'Authorization: Bearer <token>' on /__admin calls; empty means no token. [env: SKAN_MOCK_ADMIN_TOKEN]",
            valueName: "token"))
    var adminToken: String?

    @Flag(
        help:
            "Read the --log file back at start: the journal and every device's state, so a restart loses nothing answered. [env: SKAN_MOCK_RESUME=1]"
    )
    var resume = false

    @Flag(
        help:
            "Bound beyond loopback without --admin-token, take admin changes from any machine (by default only from this one). [env: SKAN_MOCK_ADMIN_OPEN=1]"
    )
    var adminOpen = false

    @Flag(
        help:
            "Do not reload the model when its file changes (SIGHUP still reloads it). [env: SKAN_MOCK_NO_WATCH_MODEL=1]"
    )
    var noWatchModel = false

    @Option(
        help: ArgumentHelp(
            "Start with the clock moved by this many seconds (time travel across SKAN windows; PUT /__admin/clock changes it later). [env: SKAN_MOCK_CLOCK_OFFSET, default: 0]",
            valueName: "seconds"))
    var clockOffset: Int?

    @Option(
        name: .customLong("route"),
        help: ArgumentHelp(
            "Serve an endpoint at one more path, adding fixed parameters the client does not send, e.g. '/v2/attribution/conversion-value=skan4?a=KEY' (endpoints: skan3, skan4, launch, evt, launch2, evt2); repeatable. [env: SKAN_MOCK_ROUTES, a comma list]",
            valueName: "path=endpoint[?name=value&...]"))
    var routes: [String] = []

    @Option(
        help: ArgumentHelp(
            "Also serve HTTPS on this port (0 picks a free one), with a certificate a phone can trust. [env: SKAN_MOCK_HTTPS_PORT, default: none]",
            valueName: "port"))
    var httpsPort: Int?

    @Option(
        help: ArgumentHelp(
            "Your own certificate chain for HTTPS (PEM), with --tls-key; without them a local CA issues one. [env: SKAN_MOCK_TLS_CERT]",
            valueName: "file"))
    var tlsCert: String?

    @Option(help: ArgumentHelp("The private key of --tls-cert (PEM). [env: SKAN_MOCK_TLS_KEY]", valueName: "file"))
    var tlsKey: String?

    @Option(
        name: .customLong("tls-name"),
        help: ArgumentHelp(
            "One more host name or IP address for the HTTPS certificate; repeatable. [env: SKAN_MOCK_TLS_NAMES, a comma list]",
            valueName: "name-or-ip"))
    var tlsNames: [String] = []

    @Option(
        help: ArgumentHelp(
            "Folder of the local CA, created (mode 0700) the first time HTTPS is served. [env: SKAN_MOCK_STATE_DIR, default: ~/.skan-mock]",
            valueName: "dir"))
    var stateDir: String?

    @Option(
        help: ArgumentHelp(
            "Send every Singular request on to this service too (e.g. https://sdk-api-v1.singular.net) and compare its answers with the model's. [env: SKAN_MOCK_UPSTREAM]",
            valueName: "url"))
    var upstream: String?

    @Option(
        help: ArgumentHelp(
            "shadow: the client gets the model's answer, the upstream's is journaled beside it; proxy: the client gets the upstream's, the model's is journaled beside it. [env: SKAN_MOCK_UPSTREAM_MODE, default: shadow]",
            valueName: "mode"))
    var upstreamMode: String?

    @Option(
        help: ArgumentHelp(
            "Seconds the upstream has to answer. [env: SKAN_MOCK_UPSTREAM_TIMEOUT, default: 5]", valueName: "seconds"))
    var upstreamTimeout: Double?

    @Option(
        help: ArgumentHelp(
            "Trust this CA certificate (PEM) for an HTTPS upstream instead of the system's store. [env: SKAN_MOCK_UPSTREAM_CA]",
            valueName: "file"))
    var upstreamCa: String?

    @Option(
        help: ArgumentHelp(
            "Answer the requests a replay file (skan-mock record) holds with production's recorded answers, in order per device; the model answers the rest, with a not_recorded finding. [env: SKAN_MOCK_REPLAY]",
            valueName: "file"))
    var replay: String?

    func validate() throws {
        let environment = Environment()
        if (tlsCert ?? environment["SKAN_MOCK_TLS_CERT"] == nil) != (tlsKey ?? environment["SKAN_MOCK_TLS_KEY"] == nil)
        {
            throw ValidationError(
                "--tls-cert and --tls-key go together: give both, or neither (a local CA then issues the certificate)")
        }
        if let port = try resolvedHTTPSPort(), !(0...65535).contains(port) {
            throw ValidationError("--https-port must be in 0...65535")
        }
        for route in routes {
            do { _ = try RouteAlias(parsing: route) } catch { throw ValidationError(error.description) }
        }
        if let port = resolvedPort(), !(0...65535).contains(port) {
            throw ValidationError("--port must be in 0...65535")
        }
        if let size = journalSize, size < 1 { throw ValidationError("--journal-size must be at least 1") }
        if let capacity = deviceCapacity, capacity < 1 { throw ValidationError("--device-capacity must be at least 1") }
        if let connections = maxConnections, connections < 1 {
            throw ValidationError("--max-connections must be at least 1")
        }
    }

    func run() throws {
        // Before any thread allocates: the event loops and the journal share one malloc arena.
        System.useOneMallocArena()
        System.ignoreFileSizeLimit()
        let environment = Environment()
        var options = ServerOptions()
        options.host = host ?? environment["SKAN_MOCK_HOST"] ?? options.host
        options.port = resolvedPort() ?? options.port
        options.modelPath = model ?? environment["SKAN_MOCK_MODEL"]
        options.logPath = log ?? environment["SKAN_MOCK_LOG"]
        options.journalSize = try journalSize ?? environment.integer("SKAN_MOCK_JOURNAL_SIZE") ?? options.journalSize
        if let text = journalBytes ?? environment["SKAN_MOCK_JOURNAL_BYTES"] {
            guard let bytes = Self.byteCount(text), bytes >= 64 << 10 else {
                StandardStreams.error("skan-mock: --journal-bytes \(text): give a size of at least 64K, e.g. 64M or 1G")
                throw ExitCode(64)
            }
            options.journalBytes = bytes
        }
        options.deviceCapacity =
            try deviceCapacity ?? environment.integer("SKAN_MOCK_DEVICE_CAPACITY") ?? options.deviceCapacity
        options.limits.maxConnections =
            try maxConnections ?? environment.integer("SKAN_MOCK_MAX_CONNECTIONS") ?? options.limits.maxConnections
        guard options.limits.maxConnections >= 1 else {
            StandardStreams.error("skan-mock: SKAN_MOCK_MAX_CONNECTIONS must be at least 1")
            throw ExitCode(64)
        }
        options.strict = strict || environment.flag("SKAN_MOCK_STRICT")
        // An empty --admin-token means no token, as an empty SKAN_MOCK_ADMIN_TOKEN does: a script's
        // `--admin-token "$SKAN_MOCK_ADMIN_TOKEN"` with the variable unset must not lock the admin API.
        options.adminToken = adminToken ?? environment["SKAN_MOCK_ADMIN_TOKEN"]
        if options.adminToken?.isEmpty == true {
            options.adminToken = nil
            StandardStreams.error(
                "skan-mock: --admin-token is empty, so the admin API takes no token (as with SKAN_MOCK_ADMIN_TOKEN unset)"
            )
        }
        options.adminOpen = adminOpen || environment.flag("SKAN_MOCK_ADMIN_OPEN")
        options.resume = resume || environment.flag("SKAN_MOCK_RESUME")
        options.watchModel = !(noWatchModel || environment.flag("SKAN_MOCK_NO_WATCH_MODEL"))
        options.clockOffsetSeconds = Int64(try clockOffset ?? environment.integer("SKAN_MOCK_CLOCK_OFFSET") ?? 0)
        do {
            options.routes =
                routes.isEmpty
                ? try RouteAlias.parseList(environment["SKAN_MOCK_ROUTES"] ?? "")
                : try routes.map { route throws(RouteAlias.ParseError) in try RouteAlias(parsing: route) }
        } catch {
            StandardStreams.error("skan-mock: \(error.description)")
            throw ExitCode(64)
        }
        do {
            options.upstream = try resolvedUpstream(environment)
        } catch {
            StandardStreams.error("skan-mock: \(error)")
            throw ExitCode(64)
        }
        options.replayPath = replay ?? environment["SKAN_MOCK_REPLAY"]
        if let conflict = RouteAlias.conflict(in: options.routes) {
            StandardStreams.error("skan-mock: \(conflict)")
            throw ExitCode(64)
        }

        if let httpsPort = try resolvedHTTPSPort() {
            let names =
                tlsNames.isEmpty
                ? (environment["SKAN_MOCK_TLS_NAMES"] ?? "").split(separator: ",").map {
                    String($0.trimmingASCIIWhitespace())
                }.filter { !$0.isEmpty }
                : tlsNames
            options.https = HTTPSOptions(
                port: httpsPort, certificateFile: tlsCert ?? environment["SKAN_MOCK_TLS_CERT"],
                keyFile: tlsKey ?? environment["SKAN_MOCK_TLS_KEY"], extraNames: names,
                stateDirectory: try StateDirectory.resolve(option: stateDir, environment: environment))
        }

        let server: SKANMockServer
        do {
            server = try SKANMockServer(options: options)
        } catch {
            StandardStreams.error("skan-mock: \(error.description)")
            throw ExitCode(2)
        }
        for notice in server.notices { StandardStreams.error(notice) }
        // Signals are taken before listening, so a `docker stop` at any moment is a clean stop.
        let signalSources = SignalHandlers.install(server: server)
        do {
            try server.start()
        } catch {
            StandardStreams.error("skan-mock: \(error.description)")
            throw ExitCode(2)
        }
        StandardStreams.output("skan-mock listening on \(server.url)")
        if let httpsURL = server.httpsURL { StandardStreams.output("skan-mock listening on \(httpsURL)") }
        for line in server.networkURLs() { StandardStreams.output(line) }
        if let upstream = options.upstream {
            let who =
                upstream.mode == .shadow
                ? "the client gets the model's answers" : "the client gets the upstream's answers"
            StandardStreams.error(
                "skan-mock: \(upstream.mode.rawValue) of \(upstream.baseURL): \(who), the journal holds both (requests carry device ids: use test devices only)"
            )
        }
        withExtendedLifetime(signalSources) { dispatchMain() }
    }

    /// `--upstream` and its options, from the command line or the environment; nil without a URL.
    private func resolvedUpstream(_ environment: Environment) throws -> UpstreamOptions? {
        guard let url = upstream ?? environment["SKAN_MOCK_UPSTREAM"], !url.isEmpty else { return nil }
        let modeName = upstreamMode ?? environment["SKAN_MOCK_UPSTREAM_MODE"] ?? "shadow"
        guard let mode = UpstreamOptions.Mode(rawValue: modeName) else {
            throw ValidationError("--upstream-mode \(modeName): use shadow or proxy")
        }
        var timeout = upstreamTimeout ?? 5
        if upstreamTimeout == nil, let text = environment["SKAN_MOCK_UPSTREAM_TIMEOUT"] {
            guard let seconds = Double(text) else {
                throw ValidationError("SKAN_MOCK_UPSTREAM_TIMEOUT must be a number of seconds, not '\(text)'")
            }
            timeout = seconds
        }
        let ca = upstreamCa ?? environment["SKAN_MOCK_UPSTREAM_CA"]
        do {
            return try UpstreamOptions(
                baseURL: url, mode: mode, timeoutSeconds: timeout, caFile: ca.flatMap { $0.isEmpty ? nil : $0 })
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// `65536`, `64K`, `64M`, `1G` (powers of 1024), or nil.
    static func byteCount(_ text: String) -> Int? {
        let units: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
        guard let last = text.uppercased().last else { return nil }
        if let unit = units[last] {
            guard let value = Int(text.dropLast()), value >= 0, value <= Int.max / unit else { return nil }
            return value * unit
        }
        return Int(text).flatMap { $0 >= 0 ? $0 : nil }
    }

    private func resolvedHTTPSPort() throws -> Int? {
        if let httpsPort { return httpsPort }
        return try Environment().integer("SKAN_MOCK_HTTPS_PORT")
    }

    private func resolvedPort() -> Int? {
        port ?? Environment()["SKAN_MOCK_PORT"].flatMap { Int($0) }
    }
}
