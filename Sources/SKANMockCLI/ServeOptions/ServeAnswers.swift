import ArgumentParser
import SKANMock

/// What answers: the model and its watching, strictness, the clock, route aliases, a replay file.
struct ServeAnswers: ServeOptionGroup {
    @Option(
        help: ArgumentHelp(
            "Conversion model file. [env: SKAN_MOCK_MODEL, default: the bundled testing model]", valueName: "file"))
    var model: String?

    @Flag(
        help:
            "Do not reload the model when its file changes (SIGHUP still reloads it). [env: SKAN_MOCK_NO_WATCH_MODEL=1]"
    )
    var noWatchModel = false

    @Flag(help: "Answer requests with validation findings with {\"status\":\"error\"}. [env: SKAN_MOCK_STRICT=1]")
    var strict = false

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
        help: ArgumentHelp(
            "Answer the requests a replay file (skan-mock record) holds with production's recorded answers, in order per device; the model answers the rest, with a not_recorded finding. [env: SKAN_MOCK_REPLAY]",
            valueName: "file"))
    var replay: String?

    /// The values as given; the clock's range and the aliases' conflicts are the configuration
    /// stage's to check, told where each came from (`options.sources`).
    func apply(to options: inout ServerOptions, _ environment: Environment) throws(SKANMockServer.StartupError) {
        options.modelPath = model ?? environment["SKAN_MOCK_MODEL"]
        options.watchModel = !(noWatchModel || environment.flag("SKAN_MOCK_NO_WATCH_MODEL"))
        options.strict = strict || environment.flag("SKAN_MOCK_STRICT")
        if let offset = try environment.integer(
            clockOffset, "--clock-offset", "SKAN_MOCK_CLOCK_OFFSET", in: Int.min...Int.max,
            "takes whole seconds, within 100 years of the real time")
        {
            options.clockOffsetSeconds = Int64(offset)
            options.sources.clockOffset = clockOffset == nil ? "SKAN_MOCK_CLOCK_OFFSET" : "--clock-offset"
        }
        options.sources.routes = routes.isEmpty ? "SKAN_MOCK_ROUTES" : "--route"
        do {
            options.routes =
                routes.isEmpty
                ? try RouteAlias.parseList(environment["SKAN_MOCK_ROUTES"] ?? "")
                : try routes.map { route throws(RouteAlias.ParseError) in try RouteAlias(parsing: route) }
        } catch {
            throw SKANMockServer.StartupError(.configuration, error.description)
        }
        options.replayPath = replay ?? environment["SKAN_MOCK_REPLAY"]
    }

    mutating func validate() throws { try check() }
}
