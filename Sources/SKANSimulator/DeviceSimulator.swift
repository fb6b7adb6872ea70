import SKANDomain

/// A device running the SKAN 4 client of seed 001 (`SKANSnippet.m`) against a server: the
/// snippet's state machine over a `SimulatedDevice`, driven by scenario steps, one blocking request
/// at a time (the snippet serialises its calls with a lock, so order is all that matters).
///
/// Time: "now" is `clock()` (real time, or a test's clock). An `advance` step does not wait and
/// does not need the server's clock: it moves every stored timestamp back by the same amount, so a
/// server computing the window from `skan_first_call_to_skadnetwork_timestamp` and its own clock
/// sees a device that much older, with first, last and lock times still consistent.
public final class DeviceSimulator {
    public static let conversionPath = "/api/v2/conversion_value"
    public static let launchPath = "/api/v1/launch"
    public static let eventPath = "/api/v1/evt"
    public static let sessionEvent = "__SESSION__"

    public let scenario: SimulationScenario
    public private(set) var device = SimulatedDevice()
    /// Seconds the simulated clock is ahead of `clock()`.
    public private(set) var advanced: Int64 = 0
    private let transport: any SimulatorTransport
    private let clock: @Sendable () -> Int64
    private var stepNumber = 0

    public init(scenario: SimulationScenario, transport: any SimulatorTransport, clock: @escaping @Sendable () -> Int64)
    {
        self.scenario = scenario
        self.transport = transport
        self.clock = clock
    }

    /// Runs every step in order, handing each report to `onStep` as soon as it is done (so output
    /// streams); stops at the first transport failure, which it rethrows.
    @discardableResult
    public func run(onStep: (SimulationStepReport) -> Void = { _ in }) throws(SimulatorTransportError)
        -> [SimulationStepReport]
    {
        var reports: [SimulationStepReport] = []
        for step in scenario.steps {
            let report = try perform(step)
            reports.append(report)
            onStep(report)
        }
        return reports
    }

    /// One step, as the app would do it.
    @discardableResult
    public func perform(_ step: SimulationStep) throws(SimulatorTransportError) -> SimulationStepReport {
        stepNumber += 1
        var now = clock()
        var exchanges: [SimulationExchange] = []
        let outcome: SimulationOutcome
        let before = position(at: now)
        switch step {
        case .register:
            outcome = device.register(at: now) ? .registered(firstCall: now) : .alreadyRegistered
            if scenario.s2s { exchanges.append(try forward(Self.launchPath, .launch, event: nil)) }
        case .session, .event:
            let event: String
            if case .event(let name) = step { event = name } else { event = Self.sessionEvent }
            if device.isWindowOver(at: now) {
                outcome = .skippedWindowOver
            } else {
                let exchange = try send(event)
                exchanges.append(exchange)
                now = clock()
                outcome = apply(exchange.body, at: now)
            }
            if scenario.s2s {
                exchanges.append(
                    try forward(
                        event == Self.sessionEvent ? Self.launchPath : Self.eventPath,
                        event == Self.sessionEvent ? .launch : .event,
                        event: event == Self.sessionEvent ? nil : event))
            }
        case .revenue(let amount, let currency, let admon):
            outcome =
                device.addRevenue(amount, currency: currency, admon: admon, at: now)
                ? .revenueAdded(window: device.window(at: now)) : .revenueIgnored
        case .advance(let seconds):
            advanced += seconds
            device.age(by: seconds)
            outcome = .advanced(seconds: seconds)
        }
        // register and advance are shown where they leave the device; the others where they acted.
        let shown = step == .register || step.action == "advance" ? position(at: now) : before
        return SimulationStepReport(
            number: stepNumber, step: step, window: shown.window, age: shown.age,
            exchanges: exchanges, outcome: outcome, device: device)
    }

    /// The window and age the snippet would compute now (age nil before registration).
    private func position(at now: Int64) -> (window: Int?, age: Int64?) {
        guard let first = device.firstCall else { return (nil, nil) }
        return (device.window(at: now), now - first)
    }

    /// `getConversionValueFromServer`: `prepareQueryParams` then one GET.
    private func send(_ event: String) throws(SimulatorTransportError) -> SimulationExchange {
        let app = scenario.app
        let parameters =
            [
                ("a", app.apiKey), ("v", app.osVersion), ("i", app.bundle), ("app_v", app.version), ("n", event),
                ("p", "iOS"), ("idfv", scenario.device), ("idfa", app.idfa)
            ] + device.skanDetails()
        return try exchange(.conversionValue, Self.conversionPath, parameters)
    }

    /// The lifecycle example's back end: `getSkanDetails` forwarded to Singular's S2S API.
    private func forward(_ path: String, _ endpoint: SimulationExchange.Endpoint, event: String?)
        throws(SimulatorTransportError) -> SimulationExchange
    {
        let app = scenario.app
        var parameters = [("a", app.apiKey), ("p", "iOS"), ("i", app.bundle), ("idfv", scenario.device)]
        if let event { parameters.append(("n", event)) }
        return try exchange(endpoint, path, parameters + device.skanDetails())
    }

    private func exchange(
        _ endpoint: SimulationExchange.Endpoint, _ path: String,
        _ parameters: [(String, String)]
    ) throws(SimulatorTransportError) -> SimulationExchange {
        let target = path + "?" + SimulatorQuery.encode(parameters)
        let response = try transport.get(target)
        return SimulationExchange(
            endpoint: endpoint, target: target, parameters: parameters, status: response.status,
            body: String(decoding: response.body, as: UTF8.self))
    }

    /// The completion block of `getConversionValueFromServer` (an HTTP status is not an error to
    /// NSURLSession: only the body counts), then `setConversionValues` / `valuesHasBeenUpdated`.
    private func apply(_ body: String, at now: Int64) -> SimulationOutcome {
        guard let parsed = try? JSONParser.parse(body), parsed.objectValue != nil else {
            return .failed("Failed parsing server response")
        }
        guard let value = parsed["conversion_value"]?.intValue else {
            if parsed["status"]?.stringValue != "ok" {
                return .failed(parsed["reason"]?.stringValue ?? "Got error from server")
            }
            return .nothingToUpdate
        }
        let coarse = parsed["skan_updated_coarse_value"]?.intValue
        let lock = parsed["skan_updated_lock_window_value"]?.boolValue ?? false
        // validateValues: the fine range only (its coarse check, `> 2 && < 0`, can never fail).
        guard (0...63).contains(value) else { return .failed("Illegal values recieved") }
        if device.firstCall == nil { device.firstCall = now }
        let window = device.window(at: now)
        device.valuesHaveBeenUpdated(fine: value, coarse: coarse, lock: lock, at: now)
        return .applied(fine: value, coarse: coarse, lock: lock, window: window)
    }
}
