import SKANDomain

/// What `skan-mock simulate` prints: one text line per request (or per step that sends nothing)
/// and a closing summary, or the same as JSON Lines for scripts.
public enum SimulationTranscript {
    /// Parameters every request repeats; the text lines leave them out (the header shows them once).
    static let identityKeys: Set<String> = ["a", "v", "i", "app_v", "p", "idfv", "idfa"]

    public static func header(_ scenario: SimulationScenario, url: String) -> String {
        let app = scenario.app
        return "simulating \"\(scenario.name)\" against \(url): device idfv=\(scenario.device), app \(app.bundle) "
            + "\(app.version) (a=\(app.apiKey), iOS \(app.osVersion)), \(scenario.steps.count) steps"
            + (scenario.s2s ? ", S2S forwarding on" : "")
    }

    // MARK: text

    public static func lines(_ report: SimulationStepReport) -> [String] {
        let prefix =
            "[\(report.windowLabel) +\(report.age.map(SimulationDuration.text) ?? "0s")] \(describe(report.step))"
        let outcome = describe(report.outcome, report)
        var lines: [String] = []
        let conversion = report.exchanges.first { $0.endpoint == .conversionValue }
        if let conversion {
            lines.append("\(prefix)  \(describe(conversion))  \(outcome)")
        } else {
            lines.append("\(prefix)  \(outcome)")
        }
        for exchange in report.exchanges where exchange.endpoint != .conversionValue {
            lines.append("\(prefix)  \(describe(exchange))")
        }
        return lines
    }

    public static func summary(_ reports: [SimulationStepReport], _ simulator: DeviceSimulator, now: Int64) -> [String]
    {
        let counts = Counts(reports)
        let device = simulator.device
        let age = device.firstCall.map { now - $0 }
        let window = device.firstCall == nil ? "not registered" : device.window(at: now).map { "p\($0)" } ?? "over"
        var lines = [
            "done: \(plural(reports.count, "step")), \(plural(counts.requests, "request")) (\(counts.conversion) conversion_value, "
                + "\(counts.requests - counts.conversion) s2s), \(plural(counts.errors, "error")); simulated clock +\(SimulationDuration.text(simulator.advanced))",
            "device \(simulator.scenario.device): \(window)"
                + (age.map { ", age \(SimulationDuration.text($0))" } ?? ""),
            "  fine \(text(device.fine)) (prev \(text(device.prevFine)))"
        ]
        for n in 0..<3 {
            lines.append(
                "  p\(n) coarse \(coarseName(device.coarse[n])) (prev \(coarseName(device.prevCoarse[n]))), "
                    + "lock \(text(device.windowLock[n])), iap \(money(device.windowRevenue[n])), admon \(money(device.windowAdmonRevenue[n]))"
            )
        }
        lines.append("  total iap \(money(device.totalRevenue)), admon \(money(device.totalAdmonRevenue))")
        lines.append("  first call \(text(device.firstCall)), last call \(text(device.lastCall))")
        return lines
    }

    // MARK: JSON Lines

    public static func json(_ report: SimulationStepReport) -> String {
        var members = [
            JSONMember("step", .int(Int64(report.number))), JSONMember("action", .string(report.step.action))
        ]
        switch report.step {
        case .event(let name): members.append(JSONMember("event", .string(name)))
        case .revenue(let amount, let currency, let admon):
            members.append(JSONMember("amount", .double(amount)))
            members.append(JSONMember("currency", .string(currency)))
            members.append(JSONMember("admon", .bool(admon)))
        case .advance(let seconds): members.append(JSONMember("seconds", .int(seconds)))
        case .register, .session: break
        }
        members.append(JSONMember("window", .string(report.windowLabel)))
        members.append(JSONMember("age_s", report.age.map { .int($0) } ?? .null))
        members.append(
            JSONMember(
                "requests",
                .array(
                    report.exchanges.map { exchange in
                        .object([
                            JSONMember("endpoint", .string(exchange.endpoint.rawValue)),
                            JSONMember("target", .string(exchange.target)),
                            JSONMember("status", .int(Int64(exchange.status))),
                            JSONMember("body", .string(exchange.body))
                        ])
                    })))
        members.append(JSONMember("outcome", json(report.outcome)))
        members.append(JSONMember("device", report.device.json))
        return JSONValue.object(members).description
    }

    public static func jsonSummary(_ reports: [SimulationStepReport], _ simulator: DeviceSimulator) -> String {
        let counts = Counts(reports)
        return JSONValue.object([
            JSONMember(
                "summary",
                .object([
                    JSONMember("scenario", .string(simulator.scenario.name)),
                    JSONMember("device", .string(simulator.scenario.device)),
                    JSONMember("steps", .int(Int64(reports.count))),
                    JSONMember("requests", .int(Int64(counts.requests))),
                    JSONMember("errors", .int(Int64(counts.errors))),
                    JSONMember("advanced_s", .int(simulator.advanced)),
                    JSONMember("state", simulator.device.json)
                ]))
        ]).description
    }

    /// A request that went out and was answered with anything but HTTP 200 and `"status":"ok"`.
    public static func isErrorAnswer(_ exchange: SimulationExchange) -> Bool {
        guard exchange.status == 200, let parsed = try? JSONParser.parse(exchange.body) else { return true }
        return parsed["status"]?.stringValue != "ok"
    }

    // MARK: pieces

    private struct Counts {
        var requests = 0
        var conversion = 0
        var errors = 0

        init(_ reports: [SimulationStepReport]) {
            for report in reports {
                requests += report.exchanges.count
                conversion += report.exchanges.filter { $0.endpoint == .conversionValue }.count
                let failedAnswers = report.exchanges.filter(SimulationTranscript.isErrorAnswer).count
                errors += report.outcome.isFailure ? max(1, failedAnswers) : failedAnswers
            }
        }
    }

    static func describe(_ step: SimulationStep) -> String {
        switch step {
        case .register: return "register"
        case .session: return "session"
        case .event(let name): return "event \(name)"
        case .revenue(let amount, let currency, let admon):
            return "revenue \(amount) \(currency)\(admon ? " (admon)" : "")"
        case .advance(let seconds): return "advance \(SimulationDuration.text(seconds))"
        }
    }

    static func describe(_ exchange: SimulationExchange) -> String {
        let shown = exchange.parameters.filter { !identityKeys.contains($0.0) }
        let path = exchange.target.split(separator: "?", maxSplits: 1).first.map(String.init) ?? exchange.target
        let answer = exchange.body.isEmpty ? "(empty body)" : exchange.body
        return "-> GET \(path)?\(SimulatorQuery.readable(shown))  <- "
            + (exchange.status == 200 ? "" : "HTTP \(exchange.status) ") + answer
    }

    static func describe(_ outcome: SimulationOutcome, _ report: SimulationStepReport) -> String {
        switch outcome {
        case .registered(let first):
            return "registered: fine=0, first call = last call = \(first)"
        case .alreadyRegistered:
            return "already registered: nothing done"
        case .applied(let fine, let coarse, let lock, let window):
            if let window, window > 0 {
                return
                    "applied to p\(window): coarse=\(coarseName(coarse)) lock=\(lock) (fine \(fine) not stored: iOS ignores it after p0)"
            }
            return "applied fine=\(fine) coarse=\(coarseName(coarse)) lock=\(lock)"
        case .nothingToUpdate:
            return "nothing to update"
        case .failed(let reason):
            return "error: \(reason) (nothing stored)"
        case .skippedWindowOver:
            return report.age == nil
                ? "skipped: not registered (no first-call timestamp, so isSkanWindowOver), nothing sent"
                : "skipped: SKAN windows over (35 days since the first call), nothing sent"
        case .revenueAdded(let window):
            let device = report.device
            let admon: Bool
            if case .revenue(_, _, let isAdmon) = report.step { admon = isAdmon } else { admon = false }
            let total = money(admon ? device.totalAdmonRevenue : device.totalRevenue)
            guard let window else { return "added to the total only (windows over): total \(total)" }
            let windowTotal = money(admon ? device.windowAdmonRevenue[window] : device.windowRevenue[window])
            return "added: total \(total), p\(window) \(windowTotal)"
        case .revenueIgnored:
            return "ignored: updateRevenue returns for an amount of 0"
        case .advanced(let seconds):
            let first = report.device.firstCall.map { ", first call now \($0)" } ?? " (not registered yet)"
            return "clock moved on: stored timestamps moved back \(seconds) s\(first)"
        }
    }

    static func json(_ outcome: SimulationOutcome) -> JSONValue {
        func kind(_ name: String, _ more: [JSONMember] = []) -> JSONValue {
            .object([JSONMember("kind", .string(name))] + more)
        }
        switch outcome {
        case .registered(let first): return kind("registered", [JSONMember("first_call", .int(first))])
        case .alreadyRegistered: return kind("already_registered")
        case .applied(let fine, let coarse, let lock, let window):
            return kind(
                "applied",
                [
                    JSONMember("fine", .int(fine)), JSONMember("coarse", coarse.map { .int($0) } ?? .null),
                    JSONMember("lock", .bool(lock)), JSONMember("window", window.map { .string("p\($0)") } ?? .null)
                ])
        case .nothingToUpdate: return kind("nothing_to_update")
        case .failed(let reason): return kind("error", [JSONMember("reason", .string(reason))])
        case .skippedWindowOver: return kind("skipped_window_over")
        case .revenueAdded(let window):
            return kind("revenue_added", [JSONMember("window", window.map { .string("p\($0)") } ?? .null)])
        case .revenueIgnored: return kind("revenue_ignored")
        case .advanced(let seconds): return kind("advanced", [JSONMember("seconds", .int(seconds))])
        }
    }

    static func coarseName(_ value: Int64?) -> String {
        switch value {
        case nil: return "-"
        case let known? where (0...2).contains(known): return CoarseValue.name(known)
        case let other?: return String(other)
        }
    }

    private static func text(_ value: Int64?) -> String { value.map(String.init) ?? "-" }

    private static func money(_ value: [String: Double]?) -> String {
        value.map { SimulatedDevice.json($0).description } ?? "-"
    }
}

/// "1 request", "2 requests".
private func plural(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
