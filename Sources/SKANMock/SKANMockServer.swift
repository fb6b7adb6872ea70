import HTTPCore
import SKANDomain
import SKANFiles
import SystemPOSIX

/// The whole application, wired: the model, the conversion service, the journal and its log, and
/// the HTTP server routing Singular's endpoints and the admin API. Tests start one on port 0 in
/// process; the command line starts one and waits for a signal.
public final class SKANMockServer: Sendable {
    public let options: ServerOptions
    public let service: ConversionService
    public var journal: Journal { running.journal }
    public let faults: FaultInjector
    /// The server's clock: the real one (or a test's) moved by the time-travel offset.
    public let clock: OffsetClock
    /// What the start-up stages started: the journal's file, the upstream, the delays, the sender.
    private let running: RunningParts
    /// The listeners and what answers on them.
    private let listeners: ServerListeners
    private let ports = ListeningPorts()
    private let modelStatus = ModelStatus()
    private let watcher: ModelFileWatcher?
    /// Shadow mode's entries of the default tenant waiting for the upstream (for tests).
    var upstreamArrivals: ArrivalOrder? { running.upstream == nil ? nil : defaultTenant.arrivals }
    /// The default tenant (the unprefixed paths).
    let defaultTenant: Tenant
    /// The postback sender's threads and queue (for tests).
    var postbackSends: PostbackSendQueue { running.postbackSends }
    /// What started, to stop in reverse.
    private let lifecycle = ServerLifecycle()
    /// The named tenants (`/t/NAME`).
    let tenants: TenantRegistry
    /// What answers every request, sockets aside: tests drive routes through it in process.
    var responder: any HTTPResponder { listeners.responder }
    /// The admin API, the console and the phone set-up: one router for every tenant.
    var admin: AdminRouteGroup { listeners.admin }
    /// Every admin route registered by any group this server makes.
    let adminRegistrations = AdminRouteGroup.RouteRegistrations()
    /// Lines for standard error about the start-up, e.g. fewer connections than asked for because
    /// the open-file limit could not be raised.
    public let notices: [String]

    /// The start-up stages up to the listeners, each failure a `StartupError` of its stage: checks
    /// the options, loads the model and the replay file, sets up HTTPS and the upstream, then opens
    /// the log (and reads it back with `--resume`). Nothing listens until `start()`.
    public convenience init(
        options: ServerOptions, clock: any SKANClock = SystemClock(),
        localAddresses: @autoclosure () -> [String] = System.reachableAddresses().map(\.address)
    ) throws(StartupError) {
        try self.init(options: options, clock: clock, localAddresses: localAddresses(), edges: Edges())
    }

    /// The server's I/O edges that tests replace with in-memory twins, so that the whole request
    /// pipeline runs in process without sockets or sleeps.
    struct Edges: Sendable {
        /// What carries upstream exchanges; nil: libcurl's client.
        var upstream: (any UpstreamTransport)? = nil
        /// The server's own time: delayed answers, journal waits' timeouts, the event stream's
        /// heartbeat, the model watcher's tick.
        var timer: ServerTimer = .dispatch
        /// What carries the postback sender's posts.
        var postbackTransport: any PostbackTransport = SocketPostbackTransport()
    }

    /// The stages in order, each given what the one before made: the options checked, the files
    /// loaded, the running parts opened (each adopted by the lifecycle as it is made, so that a
    /// later failure stops them again), the tenants, `--resume`, then the listeners.
    init(
        options: ServerOptions, clock: any SKANClock, localAddresses: @autoclosure () -> [String], edges: Edges
    ) throws(StartupError) {
        self.options = options
        let checked = try StartupConfiguration.check(
            options, localAddresses: options.upstream == nil ? [] : localAddresses())
        let files = try StartupFiles(checked)
        let offsetClock = OffsetClock(base: clock, offsetSeconds: options.clockOffsetSeconds)
        self.clock = offsetClock
        let running = try RunningParts(checked, clock: offsetClock, edges: edges, into: lifecycle)
        self.running = running
        let service = ConversionService(
            model: files.model, clock: offsetClock, deviceCapacity: options.deviceCapacity,
            deviceBytes: options.deviceBytes, strict: options.strict)
        self.service = service
        faults = FaultInjector(rules: files.model.faults)
        let components = ServerComponents(
            checked, files: files, running: running, ports: ports, modelStatus: modelStatus, edges: edges)
        defaultTenant = Tenant(
            name: nil, service: service, faults: faults, clock: offsetClock, birthModel: files.model,
            arrivals: ArrivalOrder(limits: options.upstream?.shadowHeld ?? .standard))
        let routes = SingularRoutes(aliases: options.routes)
        let tenants = TenantRegistry.factory(
            checked, defaultService: service, clock: clock, components: components, routes: routes,
            replay: files.replay)
        self.tenants = tenants
        let resumed = try running.unwinding { () throws(StartupError) in
            try Self.resume(checked, into: service, tenants: tenants, journal: running.journal, clock: offsetClock)
        }
        listeners = ServerListeners(
            checked, files: files, components: components,
            site: TenantSite(tenant: defaultTenant, server: components, routes: routes), tenants: tenants,
            registrations: adminRegistrations)
        notices = Self.notices(listeners, resume: resumed, replay: files.replay, https: files.https)
        watcher = options.modelPath.flatMap { path in
            options.watchModel ? ModelFileWatcher(path: path, timer: edges.timer) : nil
        }
    }

    /// What start-up says after the listening line: the admin guard, `--resume`'s, `--replay`'s and
    /// HTTPS's notes, and what this build left out.
    private static func notices(
        _ listeners: ServerListeners, resume: [String], replay: Replay?, https: HTTPSService?
    ) -> [String] {
        var notices = listeners.budgetNotice.map { [$0] } ?? []
        if listeners.guardian.changesFromThisMachineOnly { notices.append(AdminGuard.startupNotice) }
        notices += resume
        if let replay {
            notices.append(
                "skan-mock: replaying \(Counted.text(replay.answerCount, "recorded answer")) for \(Counted.text(replay.deviceCount, "device")) from \(replay.source); other requests get the model's answer and a not_recorded finding"
            )
        }
        notices += https?.notes ?? []
        if let compiledOut = BuildFeatures.notice() { notices.append(compiledOut) }
        return notices
    }

    /// A server started in process, for a Swift test suite: on 127.0.0.1 and a free port (read
    /// `port` or `url`), the bundled model, no journal file, no model watching, unless `configure`
    /// says otherwise. Stop it with `stop()`; read what arrived with `journal.query(...)`.
    public static func start(configure: (inout ServerOptions) -> Void = { _ in }) throws(StartupError) -> SKANMockServer
    {
        var options = ServerOptions()
        options.port = 0
        options.watchModel = false
        configure(&options)
        let server = try SKANMockServer(options: options)
        try server.start()
        return server
    }

    /// Starts listening. The port is known when this returns. An upstream found to be one of the
    /// ports just bound (`--port 0` and a guess) closes them again and fails the start.
    public func start() throws(StartupError) {
        do {
            try lifecycle.start(parts)
        } catch {
            // The server's parts fail with its own error; any other is said with the part's name.
            throw error.error as? StartupError ?? StartupError(.listeners, error.description)
        }
    }

    /// The parts `start()` starts, in order; `stop` stops them in reverse, then the ones made by
    /// the start-up stages (`ServerLifecycle`).
    private var parts: [any ServerService] {
        let options = options
        let (http, httpsServer, ports) = (listeners.http, listeners.https, ports)
        var parts: [any ServerService] = [Self.listener("http listener", http, option: "--port", port: options.port)]
        if let httpsServer {
            parts.append(
                Self.listener("https listener", httpsServer, option: "--https-port", port: options.https?.port ?? 0))
        }
        parts.append(
            ServerPart(
                "ports",
                start: { () throws(StartupError) in
                    if let upstream = options.upstream {
                        try StartupConfiguration.notItself(
                            upstream, listenHost: options.host,
                            ports: [http.port] + (httpsServer.map { [$0.port] } ?? []),
                            localAddresses: System.reachableAddresses().map(\.address))
                    }
                    ports.set(http: http.port, https: httpsServer?.port)
                }))
        if let watcher {
            parts.append(
                ServerPart(
                    "model watcher",
                    start: { [weak self] in
                        watcher.start { [weak self] in
                            guard let self else { return true }
                            let result = self.reloadModelFile()
                            self.reportReload(
                                result.mapError { StartupError(.model, $0.summary) }, trigger: "file changed")
                            // A file that could not be read is tried again on the next tick; a bad one
                            // waits for its next change (no line a second about the same mistake).
                            if case .failure(let failure) = result, failure.couldNotRead { return false }
                            return true
                        }
                    },
                    stop: { _ in watcher.stop() }))
        }
        // Stopped first: a test waiting for requests is answered before anything else stops.
        parts.append(ServerPart("journal waiters", stop: { [journal] _ in journal.waiters.expireAll() }))
        return parts
    }

    /// A listener as a part: a port it cannot bind fails the start with the option to change.
    private static func listener(_ name: String, _ server: HTTPServer, option: String, port: Int) -> ServerPart {
        ServerPart(
            name,
            start: { () throws(StartupError) in
                do throws(HTTPServerError) {
                    try server.start()
                } catch {
                    server.shutdown(gracePeriod: 0)
                    throw StartupError(.listeners, Self.listenFailure(error, option: option, port: port))
                }
            },
            stop: { server.shutdown(gracePeriod: $0) })
    }

    /// The parts running, in start order (for tests).
    var runningParts: [String] { lifecycle.running }

    public var port: Int { listeners.http.port }

    /// Why a listener did not start, blaming the option at fault: a host name that does not
    /// resolve is `--host`'s, whatever the port; the rest is the port's.
    static func listenFailure(_ error: HTTPServerError, option: String, port: Int) -> String {
        if case .cannotResolve(let host, _) = error {
            return
                "--host \(host): \(error.description) (give --host a name this machine resolves, or an address: 127.0.0.1, 0.0.0.0 for every interface)"
        }
        return "\(option) \(port): \(error.description)" + inUseHint(error, option)
    }

    /// What to do about a port that another program holds (a server left running, say).
    static func inUseHint(_ error: HTTPServerError, _ option: String) -> String {
        guard case .portInUse = error else { return "" }
        return
            " (another program holds it, perhaps a skan-mock started earlier: stop it, or give \(option) another port, or \(option) 0 for a free one)"
    }

    /// The HTTPS port, when `--https-port` was given.
    public var httpsPort: Int? { listeners.https?.port }

    /// `http://HOST:PORT`, the line scripts wait for.
    public var url: String { Self.url(scheme: "http", host: options.host, port: port) }

    /// `https://HOST:PORT`, when HTTPS is on.
    public var httpsURL: String? { httpsPort.map { Self.url(scheme: "https", host: options.host, port: $0) } }

    static func url(scheme: String, host: String, port: Int) -> String {
        "\(scheme)://\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }

    /// Stops accepting, finishes requests in flight, and flushes the journal log: the server's
    /// parts in the reverse of their start (`parts`).
    public func stop(gracePeriod: Double = 5) {
        lifecycle.stop(gracePeriod: gracePeriod)
    }

    /// Answers an injected `delay` fault holds back right now (journaled once sent).
    public var answersHeldBack: Int { running.delays.count }

    /// Blocks until every journal line recorded so far is in the log (tests read the file after).
    public func flushJournalLog() {
        running.journalFile?.flush()
    }

    /// Reads and checks a model file; the built-in testing model when `path` is nil.
    public static func loadModel(_ path: String?) throws(StartupError) -> ConversionModel {
        guard let path else { return .builtIn }
        switch readModel(path) {
        case .success(let model): return model
        case .failure(let failure): throw StartupError(.model, failure.summary)
        }
    }

    /// The upstream stage: its CA file read and checked as PEM, then its client (libcurl's, unless
    /// a test gives its own `transport`).
    /// Reads and checks `--upstream-ca` with the other files, before the log is opened: a bad one
    /// leaves the log as it was.
    static func checkUpstreamFiles(_ options: UpstreamOptions) throws(StartupError) {
        if let ca = options.caFile {
            let bytes: [UInt8]
            do {
                bytes = try FileBytes.read(ca, limit: 1 << 20)
            } catch {
                throw StartupError(.upstream, "--upstream-ca: cannot read \(error.description)")
            }
            try StartupConfiguration.checkCertificateAuthority(path: ca, bytes: bytes)
        }
    }

    /// The upstream's client, after its files were checked (`checkUpstreamFiles`).
    static func startUpstream(
        _ options: UpstreamOptions, transport: (any UpstreamTransport)? = nil
    ) throws(StartupError) -> Upstream {
        if let transport { return Upstream(options, transport: transport) }
        do {
            return try Upstream.curl(options)
        } catch {
            throw StartupError(.upstream, error.reason)
        }
    }

    /// Reads a replay file (`--replay`); a bad one stops the start naming the file, the JSON path
    /// and the reason, as a bad model file does.
    static func loadReplay(_ path: String) throws(StartupError) -> Replay {
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.read(path)
        } catch {
            throw StartupError(.replay, "--replay: cannot read \(error.description)")
        }
        do {
            return Replay(try ReplayFile.parse(bytes: bytes, source: path), source: path)
        } catch {
            throw StartupError(.replay, "--replay: \(error.description)")
        }
    }

    /// Reads and parses a model file: the one place start-up, reloads and `validate` load models.
    static func readModel(_ path: String) -> Result<ConversionModel, ModelCheckFailure> {
        ModelFile.read(path)
    }
}

extension SKANMockServer {
    /// Reads the model file again and swaps it in; a bad file keeps the model in use, and its
    /// reason shows in `/__admin/health` until a good file comes.
    public func reloadModel() -> Result<String, StartupError> {
        reloadModelFile().mapError { StartupError(.model, $0.summary) }
    }

    /// `reloadModel`, telling a file that could not be read from one that did not load.
    func reloadModelFile() -> Result<String, ModelCheckFailure> {
        let read = options.modelPath.map { Self.readModel($0) } ?? .success(.builtIn)
        switch read {
        case .success(let model):
            service.replaceModel(model)
            faults.replace(with: model.faults)
            modelStatus.succeeded()
            return .success(model.name)
        case .failure(let failure):
            modelStatus.failed(failure.summary)
            return .failure(failure)
        }
    }

    /// One line on standard error per reload, good or bad.
    public func reportReload(_ result: Result<String, StartupError>, trigger: String) {
        switch result {
        case .success(let name): StandardStreams.error("skan-mock: \(trigger): model reloaded: \(name)")
        case .failure(let error):
            StandardStreams.error(
                "skan-mock: \(trigger): model not reloaded, keeping the current one: \(error.description)")
        }
    }
}

extension SKANMockServer {
    /// `skan-mock validate`: the model's name, or one line per problem ("FILE: $.path: reason").
    public static func checkModel(_ path: String) -> Result<String, ModelCheckFailure> {
        readModel(path).map(\.name)
    }
}

extension SKANMockServer {
    /// Ends the journal file's last line (`--resume` keeps a whole entry that lacks its newline).
    static func appendNewline(to path: String) -> SystemError? {
        let fd: Int32
        do {
            fd = try System.openForAppending(path)
        } catch {
            return error
        }
        defer { System.close(fd) }
        return System.writeAll(fd, [UInt8(ascii: "\n")])
    }
}
