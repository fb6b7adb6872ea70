import ArgumentParser
import SKANDomain
import SKANFiles
import SKANMock
import SKANSimulator

/// `skan-mock simulate`: a device running seed 001's SKAN 4 client against a running server, for
/// QA without a phone: it prints what each step sent and which values the client applied.
struct Simulate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Simulate a device running the SKAN 4 client code (SKANSnippet.m) against a server.",
        discussion: """
            Runs a scenario (register, sessions, events, revenue, clock advances) and prints one line \
            per request: what was sent, what came back, which values the client applied; then the \
            device's state. Without --scenario it runs seed 001's lifecycle example \
            (config/scenarios/lifecycle.json). The clock is simulated: an "advance" step moves every \
            stored timestamp back instead of waiting, so the server sees an older device. \
            Exit 0 when every step ran (error answers are reported), 1 when the server cannot be \
            reached, 2 for a scenario file that cannot be used.
            """
    )

    @Option(
        help: ArgumentHelp(
            "The server's base URL (SINGULAR_API_URL without /api/..., or the whole SINGULAR_API_URL), e.g. http://127.0.0.1:8080.",
            valueName: "url"))
    var url: String

    @Option(
        help: ArgumentHelp(
            "A scenario file (see config/scenarios/). [default: the lifecycle example]", valueName: "file"))
    var scenario: String?

    @Option(
        help: ArgumentHelp(
            "The idfv to send, overriding the scenario's (a fresh id starts a fresh device on the server).",
            valueName: "id"))
    var device: String?

    @Flag(help: "Print JSON Lines (one object per step, then a summary) instead of text.")
    var json = false

    @Option(
        help: ArgumentHelp("Seconds each exchange may take (each answer is read up to 1 MiB).", valueName: "seconds")
    )
    var timeout: Double = 5

    func validate() throws {
        do {
            _ = try SimulatorURL(parsing: url)
        } catch {
            throw ValidationError("--url: \(error.description)")
        }
        if let device, device.isEmpty { throw ValidationError("--device must not be empty") }
        guard timeout > 0 else { throw ValidationError("--timeout must be positive") }
    }

    func run() throws {
        let base: SimulatorURL
        do { base = try SimulatorURL(parsing: url) } catch { throw ValidationError("--url: \(error.description)") }
        var plan: SimulationScenario
        if let scenario {
            do {
                plan = try SimulationScenario.load(path: scenario)
            } catch {
                StandardStreams.error("skan-mock simulate: \(error.description)")
                throw ExitCode(2)
            }
        } else {
            plan = SimulationScenario.builtIn
        }
        if let device { plan.device = device }

        let clock = SystemClock()
        let simulator = DeviceSimulator(
            scenario: plan, transport: HTTPProbeTransport(base: base, timeout: timeout),
            clock: { clock.nowSeconds() })
        if !json { StandardStreams.output(SimulationTranscript.header(plan, url: base.description)) }
        let reports: [SimulationStepReport]
        do {
            reports = try simulator.run { report in
                if json {
                    StandardStreams.output(SimulationTranscript.json(report))
                } else {
                    for line in SimulationTranscript.lines(report) { StandardStreams.output(line) }
                }
            }
        } catch {
            StandardStreams.error("skan-mock simulate: cannot reach the server: \(error.description)")
            throw ExitCode(1)
        }
        if json {
            StandardStreams.output(SimulationTranscript.jsonSummary(reports, simulator))
        } else {
            for line in SimulationTranscript.summary(reports, simulator, now: clock.nowSeconds()) {
                StandardStreams.output(line)
            }
        }
        // A wrong URL answers every request 404: that is no run, whatever the steps printed.
        let statuses = reports.flatMap(\.exchanges).map(\.status)
        if !statuses.isEmpty, !statuses.contains(where: { (200..<300).contains($0) }) {
            let seen = Set(statuses).sorted().map(String.init).joined(separator: ", ")
            StandardStreams.error(
                "skan-mock simulate: no step got an answer (every request was answered \(seen)); is \(base) skan-mock's base URL? Give --url the server's address (SINGULAR_API_URL without /api/...), e.g. http://127.0.0.1:8080"
            )
            throw ExitCode(1)
        }
    }
}
