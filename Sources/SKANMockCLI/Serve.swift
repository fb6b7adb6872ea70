import ArgumentParser
import Dispatch
import SKANFiles
import SKANMock
import SystemPOSIX

/// `skan-mock serve` (the default subcommand): runs the server until SIGTERM or SIGINT.
struct Serve: ParsableCommand {
    typealias StartupError = SKANMockServer.StartupError

    static let configuration = CommandConfiguration(
        abstract: "Run the server (the default subcommand).",
        discussion: """
            Each option can also be set in the environment (for containers); the command line wins. \
            On start, one line is printed: "skan-mock listening on http://HOST:PORT". SIGTERM and \
            SIGINT stop accepting, finish requests in flight, flush the journal and exit 0; SIGHUP \
            reloads the model file, as does a change of the file (a bad file keeps the model in use). \
            What stops the start is one line on standard error naming the option, variable or file \
            and why: exit status 64 for options that cannot work, 2 for a file, certificate or port \
            that fails.
            """
    )

    @Option(help: ArgumentHelp("Address to listen on. [env: SKAN_MOCK_HOST, default: 127.0.0.1]", valueName: "address"))
    var host: String?

    @Option(
        parsing: .unconditional,
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
        parsing: .unconditional,
        help: ArgumentHelp(
            "Journal entries kept in memory; the oldest are dropped first. [env: SKAN_MOCK_JOURNAL_SIZE, default: 10000]",
            valueName: "n"))
    var journalSize: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Bytes of journal lines kept in memory (K, M, G suffixes); the oldest entries are dropped first. [env: SKAN_MOCK_JOURNAL_BYTES, default: 64M]",
            valueName: "bytes"))
    var journalBytes: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Devices whose state is kept; the least recently seen are dropped. [env: SKAN_MOCK_DEVICE_CAPACITY, default: 100000]",
            valueName: "n"))
    var deviceCapacity: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Named tenants (/t/NAME) kept at once; the least recently used one not in use is dropped, else a new one gets 503. [env: SKAN_MOCK_MAX_TENANTS, default: 64]",
            valueName: "n"))
    var maxTenants: Int?

    @Option(
        parsing: .unconditional,
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

    @Option(
        name: .customLong("allowed-host"),
        help: ArgumentHelp(
            "One more host name the admin API and the console answer (a Compose service's name, a QA box's DNS name), besides this machine's own names and addresses; repeatable. Others get 421 (DNS rebinding). [env: SKAN_MOCK_ALLOWED_HOSTS, a comma list]",
            valueName: "name"))
    var allowedHosts: [String] = []

    @Flag(
        help:
            "Do not reload the model when its file changes (SIGHUP still reloads it). [env: SKAN_MOCK_NO_WATCH_MODEL=1]"
    )
    var noWatchModel = false

    @Option(
        parsing: .unconditional,
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
        parsing: .unconditional,
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
        parsing: .unconditional,
        help: ArgumentHelp(
            "Seconds the upstream has to answer, from 0.001 to 60. [env: SKAN_MOCK_UPSTREAM_TIMEOUT, default: 5]",
            valueName: "seconds"))
    var upstreamTimeout: Double?

    @Option(
        help: ArgumentHelp(
            "Trust only this CA certificate (PEM) for an HTTPS upstream: it replaces the system's trusted CAs, so a run through a corporate CA proves that CA. [env: SKAN_MOCK_UPSTREAM_CA]",
            valueName: "file"))
    var upstreamCa: String?

    @Option(
        help: ArgumentHelp(
            "Answer the requests a replay file (skan-mock record) holds with production's recorded answers, in order per device; the model answers the rest, with a not_recorded finding. [env: SKAN_MOCK_REPLAY]",
            valueName: "file"))
    var replay: String?

    @Option(
        help: ArgumentHelp(
            "Write the server's process id to this file once it listens, and remove it when it stops; the server holds a lock on it while it runs, and a file another server holds is refused (a stale one is taken over). For scripts that stop the server they started (kill $(cat FILE)). [env: SKAN_MOCK_PID_FILE]",
            valueName: "file"))
    var pidFile: String?

    func run() throws {
        System.ignoreFileSizeLimit()
        let options: ServerOptions
        do {
            options = try resolvedOptions(Environment())
        } catch {
            StandardStreams.error("skan-mock: \(error.description)")
            throw ExitCode(error.exitStatus)
        }
        // Before the server's threads allocate. Serving from the model, the event loops and the
        // journal's writer share one malloc arena: entries allocated on one thread and freed on
        // another would fragment several (memory). With an upstream, libcurl's thread and the
        // completions allocate on every request too, and one arena's lock is the bottleneck
        // (Benchmarks/results.md, issue 32 round 2: 7 futex calls per shadowed request against
        // 0.3, and a third fewer requests served): glibc's arena per thread, then.
        if options.upstream == nil { System.useOneMallocArena() }
        if adminToken?.isEmpty == true {
            StandardStreams.error(
                "skan-mock: --admin-token is empty, so the admin API takes no token (as with SKAN_MOCK_ADMIN_TOKEN unset)"
            )
        }
        let server: SKANMockServer
        do {
            server = try SKANMockServer(options: options)
        } catch {
            StandardStreams.error("skan-mock: \(error.description)")
            throw ExitCode(error.exitStatus)
        }
        let pid: PidFile?
        do {
            let path = pidFile ?? Environment()["SKAN_MOCK_PID_FILE"]
            pid = try path.flatMap { $0.isEmpty ? nil : $0 }.map { path throws(SKANMockServer.StartupError) in
                try PidFile.claim(path)
            }
        } catch {
            StandardStreams.error("skan-mock: \(error.description)")
            throw ExitCode(error.exitStatus)
        }
        do {
            try server.start()
            try pid?.write()
        } catch {
            pid?.abandon()
            StandardStreams.error("skan-mock: \(error.description)")
            throw ExitCode(error.exitStatus)
        }
        // Signals have been blocked since `main` began, so a `docker stop` at any moment waits for
        // these handlers, which stop a server that has started: a clean stop.
        let signalSources = SignalHandlers.install(server: server, pidFile: pid)
        // Said once the start is sure: a refused start is its one line.
        for notice in server.notices { StandardStreams.error(notice) }
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

    /// The command line over the environment, every value checked here, so a mistake is one line
    /// naming the option or the variable it came from (configuration errors, exit status 64).
    private func resolvedOptions(_ environment: Environment) throws(StartupError) -> ServerOptions {
        var options = ServerOptions()
        options.host = host ?? environment["SKAN_MOCK_HOST"] ?? options.host
        let ports = "must be in 0...65535 (0 picks a free one)"
        options.port =
            try environment.integer(port, "--port", "SKAN_MOCK_PORT", in: 0...65535, ports) ?? options.port
        options.modelPath = model ?? environment["SKAN_MOCK_MODEL"]
        options.logPath = log ?? environment["SKAN_MOCK_LOG"]
        let positive = "must be at least 1"
        options.journalSize =
            try environment.integer(journalSize, "--journal-size", "SKAN_MOCK_JOURNAL_SIZE", in: 1...Int.max, positive)
            ?? options.journalSize
        if let (text, source) = environment.text(journalBytes, "--journal-bytes", "SKAN_MOCK_JOURNAL_BYTES") {
            guard let bytes = Self.byteCount(text), bytes >= 64 << 10 else {
                throw StartupError(.configuration, "\(source) \(text): give a size of at least 64K, e.g. 64M or 1G")
            }
            options.journalBytes = bytes
        }
        options.deviceCapacity =
            try environment.integer(
                deviceCapacity, "--device-capacity", "SKAN_MOCK_DEVICE_CAPACITY", in: 1...Int.max, positive)
            ?? options.deviceCapacity
        options.maxTenants =
            try environment.integer(maxTenants, "--max-tenants", "SKAN_MOCK_MAX_TENANTS", in: 1...Int.max, positive)
            ?? options.maxTenants
        options.limits.maxConnections =
            try environment.integer(
                maxConnections, "--max-connections", "SKAN_MOCK_MAX_CONNECTIONS", in: 1...Int.max, positive)
            ?? options.limits.maxConnections
        options.strict = strict || environment.flag("SKAN_MOCK_STRICT")
        // An empty --admin-token means no token, as an empty SKAN_MOCK_ADMIN_TOKEN does: a script's
        // `--admin-token "$SKAN_MOCK_ADMIN_TOKEN"` with the variable unset must not lock the admin API.
        options.adminToken = adminToken ?? environment["SKAN_MOCK_ADMIN_TOKEN"]
        if options.adminToken?.isEmpty == true { options.adminToken = nil }
        options.adminOpen = adminOpen || environment.flag("SKAN_MOCK_ADMIN_OPEN")
        options.allowedHosts =
            allowedHosts.isEmpty
            ? (environment["SKAN_MOCK_ALLOWED_HOSTS"] ?? "").split(separator: ",").map {
                String($0.trimmingASCIIWhitespace())
            }.filter { !$0.isEmpty }
            : allowedHosts
        options.resume = resume || environment.flag("SKAN_MOCK_RESUME")
        options.watchModel = !(noWatchModel || environment.flag("SKAN_MOCK_NO_WATCH_MODEL"))
        let century = Int(ServerOptions.maxClockOffsetSeconds)
        options.clockOffsetSeconds = Int64(
            try environment.integer(
                clockOffset, "--clock-offset", "SKAN_MOCK_CLOCK_OFFSET", in: -century...century,
                "is more than 100 years (\(century) s) from the real time") ?? 0)
        let routeSource = routes.isEmpty ? "SKAN_MOCK_ROUTES" : "--route"
        do {
            options.routes =
                routes.isEmpty
                ? try RouteAlias.parseList(environment["SKAN_MOCK_ROUTES"] ?? "")
                : try routes.map { route throws(RouteAlias.ParseError) in try RouteAlias(parsing: route) }
        } catch {
            throw StartupError(.configuration, error.description)
        }
        if let conflict = RouteAlias.conflict(in: options.routes, source: routeSource) {
            throw StartupError(.configuration, conflict)
        }
        options.upstream = try resolvedUpstream(environment)
        options.replayPath = replay ?? environment["SKAN_MOCK_REPLAY"]

        let certificate = tlsCert ?? environment["SKAN_MOCK_TLS_CERT"]
        let key = tlsKey ?? environment["SKAN_MOCK_TLS_KEY"]
        if (certificate == nil) != (key == nil) {
            throw StartupError(
                .configuration,
                "--tls-cert and --tls-key go together (SKAN_MOCK_TLS_CERT and SKAN_MOCK_TLS_KEY): give both, or neither (a local CA then issues the certificate)"
            )
        }
        let https = try environment.integer(httpsPort, "--https-port", "SKAN_MOCK_HTTPS_PORT", in: 0...65535, ports)
        // The command line's TLS options without an HTTPS listener would quietly do nothing. (Not the
        // environment's: a template such as docker/compose.yaml sets them whether or not it serves HTTPS.)
        if https == nil,
            let option = [
                tlsCert.map { _ in "--tls-cert" }, tlsKey.map { _ in "--tls-key" },
                tlsNames.first.map { _ in "--tls-name" }
            ].compactMap({ $0 }).first
        {
            throw StartupError(
                .configuration,
                "\(option) needs --https-port PORT (or SKAN_MOCK_HTTPS_PORT; 8443 is usual): without an HTTPS listener it does nothing"
            )
        }
        if let httpsPort = https {
            let names =
                tlsNames.isEmpty
                ? (environment["SKAN_MOCK_TLS_NAMES"] ?? "").split(separator: ",").map {
                    String($0.trimmingASCIIWhitespace())
                }.filter { !$0.isEmpty }
                : tlsNames
            let stateDirectory: String
            do {
                stateDirectory = try StateDirectory.resolve(option: stateDir, environment: environment)
            } catch {
                throw StartupError(.configuration, "\(error)")
            }
            options.https = HTTPSOptions(
                port: httpsPort, certificateFile: certificate, keyFile: key, extraNames: names,
                stateDirectory: stateDirectory)
        }
        return options
    }

    /// `--upstream` and its options, from the command line or the environment; nil without a URL.
    /// Its options on the command line without it are refused: they would quietly do nothing.
    private func resolvedUpstream(_ environment: Environment) throws(StartupError) -> UpstreamOptions? {
        let mode = environment.text(upstreamMode, "--upstream-mode", "SKAN_MOCK_UPSTREAM_MODE")
        let timeout = environment.text(
            upstreamTimeout.map { $0 == $0.rounded() && abs($0) < 1e9 ? "\(Int($0))" : "\($0)" }, "--upstream-timeout",
            "SKAN_MOCK_UPSTREAM_TIMEOUT")
        let ca = environment.text(
            upstreamCa.flatMap { $0.isEmpty ? nil : $0 }, "--upstream-ca", "SKAN_MOCK_UPSTREAM_CA")
        guard let (url, urlSource) = environment.text(upstream, "--upstream", "SKAN_MOCK_UPSTREAM") else {
            // Only the command line's: an environment template (docker/compose.yaml) sets the
            // variables whether or not it sets SKAN_MOCK_UPSTREAM.
            if let (value, source) = [mode, timeout, ca].compactMap({ $0 }).first(where: { $0.1.hasPrefix("--") }) {
                throw StartupError(
                    .configuration,
                    "\(source) \(value) needs --upstream URL (or SKAN_MOCK_UPSTREAM): without an upstream it does nothing"
                )
            }
            return nil
        }
        let chosenMode: UpstreamOptions.Mode
        if let (name, source) = mode {
            guard let known = UpstreamOptions.Mode(rawValue: name) else {
                throw StartupError(.configuration, "\(source) \(name): use shadow or proxy")
            }
            chosenMode = known
        } else {
            chosenMode = .shadow
        }
        var seconds = 5.0
        if let (text, source) = timeout {
            guard let value = Double(text) else {
                throw StartupError(.configuration, "\(source) \(text): give a number of seconds, e.g. 5 or 0.5")
            }
            seconds = value
        }
        do {
            return try UpstreamOptions(baseURL: url, mode: chosenMode, timeoutSeconds: seconds, caFile: ca?.0)
        } catch {
            // Named as the user gave it: the option, or the variable.
            let source = error.option == .url ? urlSource : timeout?.1 ?? error.option.rawValue
            let value = error.option == .timeout ? timeout?.0 ?? error.value : error.value
            let line = "\(source) \(value): \(error.reason)"
            throw StartupError(.configuration, line)
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
}
