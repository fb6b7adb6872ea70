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

    @OptionGroup(title: "Listening") var listening: ServeListening
    @OptionGroup(title: "Answers") var answers: ServeAnswers
    @OptionGroup(title: "Journal") var journal: ServeJournal
    @OptionGroup(title: "Tenants and devices") var tenants: ServeTenants
    @OptionGroup(title: "Admin API") var admin: ServeAdmin
    @OptionGroup(title: "HTTPS") var https: ServeHTTPS
    @OptionGroup(title: "Upstream") var upstream: ServeUpstream

    @Option(
        help: ArgumentHelp(
            "Write the server's process id to this file once it listens, and remove it when it stops; the server holds a lock on it while it runs, and a file another server holds is refused (a stale one is taken over). For scripts that stop the server they started (kill $(cat FILE)). [env: SKAN_MOCK_PID_FILE]",
            valueName: "file"))
    var pidFile: String?

    func run() throws {
        System.ignoreFileSizeLimit()
        let options = try Self.refusing { () throws(StartupError) in try serverOptions(Environment()) }
        // Before the server's threads allocate. Serving from the model, the event loops and the
        // journal's writer share one malloc arena: entries allocated on one thread and freed on
        // another would fragment several (memory). With an upstream, libcurl's thread and the
        // completions allocate on every request too, and one arena's lock is the bottleneck
        // (Benchmarks/results.md, issue 32 round 2: 7 futex calls per shadowed request against
        // 0.3, and a third fewer requests served): glibc's arena per thread, then.
        if options.upstream == nil { System.useOneMallocArena() }
        if admin.adminToken?.isEmpty == true {
            StandardStreams.error(
                "skan-mock: --admin-token is empty, so the admin API takes no token (as with SKAN_MOCK_ADMIN_TOKEN unset)"
            )
        }
        let server = try Self.refusing { () throws(StartupError) in try SKANMockServer(options: options) }
        let pid = try Self.refusing { () throws(StartupError) in
            try (pidFile ?? Environment()["SKAN_MOCK_PID_FILE"]).flatMap { $0.isEmpty ? nil : $0 }.map {
                path throws(StartupError) in try PidFile.claim(path)
            }
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
        Self.announce(server, options)
        withExtendedLifetime(signalSources) { dispatchMain() }
    }

    /// The server's options: each group's part, the command line over the environment. What holds
    /// across groups (a route alias's conflicts, the clock's range) is the server's configuration
    /// stage's to check, once.
    func serverOptions(_ environment: Environment) throws(StartupError) -> ServerOptions {
        var options = ServerOptions()
        let groups: [any ServeOptionGroup] = [listening, answers, journal, tenants, admin, https, upstream]
        for group in groups { try group.apply(to: &options, environment) }
        return options
    }

    /// A start that cannot go on: its one line on standard error, and its exit status.
    static func refusing<Value>(_ step: () throws(StartupError) -> Value) throws -> Value {
        do {
            return try step()
        } catch {
            StandardStreams.error("skan-mock: \(error.description)")
            throw ExitCode(error.exitStatus)
        }
    }

    /// Said once the start is sure (a refused start is its one line): the notices, the listening
    /// lines scripts wait for, and what an upstream does with the app's requests.
    private static func announce(_ server: SKANMockServer, _ options: ServerOptions) {
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
    }
}
