import SKANDomain
import Testing

@testable import SKANSimulator

/// The simulator's state machine against a scripted transport: what the snippet stores, sends and
/// applies, step by step.
@Suite("Device simulator (scripted transport)")
struct DeviceSimulatorTests {
    static let start: Int64 = 1_789_473_600

    func simulator(
        _ steps: [SimulationStep] = [], s2s: Bool = false, transport: ScriptedTransport,
        clock: ManualClock = ManualClock(seconds: start)
    ) -> DeviceSimulator {
        var scenario = SimulationScenario(name: "unit", device: "DEV-1", s2s: s2s, steps: steps)
        scenario.app.idfa = "IDFA"
        return DeviceSimulator(scenario: scenario, transport: transport, clock: { clock.nowSeconds() })
    }

    @Test func registerStoresFineZeroAndTheFirstCallOnce() throws {
        let transport = ScriptedTransport()
        let sim = simulator(transport: transport)
        let first = try sim.perform(.register)
        #expect(first.outcome == .registered(firstCall: Self.start))
        #expect(first.windowLabel == "p0")
        #expect(sim.device.fine == 0 && sim.device.prevFine == nil && sim.device.coarse[0] == nil)
        #expect(sim.device.firstCall == Self.start && sim.device.lastCall == Self.start)
        #expect(try sim.perform(.register).outcome == .alreadyRegistered)
        #expect(transport.targets.isEmpty)
    }

    @Test func anUnregisteredDeviceNeverAsks() throws {
        let transport = ScriptedTransport()
        let sim = simulator(transport: transport)
        let report = try sim.perform(.session)
        #expect(report.outcome == .skippedWindowOver)
        #expect(report.windowLabel == "--")
        #expect(transport.targets.isEmpty)
    }

    @Test func aSessionSendsTheSnippetsQueryAndAppliesTheAnswer() throws {
        let transport = ScriptedTransport { _ in ScriptedTransport.skan4(fine: 1, coarse: 0, lock: false) }
        let sim = simulator(transport: transport)
        try sim.perform(.register)
        let report = try sim.perform(.session)
        #expect(
            transport.targets == [
                "/api/v2/conversion_value?a=API_KEY&v=17.4&i=com.example.app&app_v=1.0&n=__SESSION__&p=iOS&idfv=DEV-1&idfa=IDFA"
                    + "&skan_current_conversion_value=0&skan_last_call_to_skadnetwork_timestamp=1789473600"
                    + "&skan_first_call_to_skadnetwork_timestamp=1789473600"
            ])
        #expect(report.outcome == .applied(fine: 1, coarse: 0, lock: false, window: 0))
        #expect(sim.device.fine == 1 && sim.device.prevFine == 0)
        #expect(sim.device.coarse[0] == 0 && sim.device.prevCoarse[0] == nil)
        #expect(
            SimulationTranscript.lines(report) == [
                "[p0 +0s] session  -> GET /api/v2/conversion_value?n=__SESSION__&skan_current_conversion_value=0"
                    + "&skan_last_call_to_skadnetwork_timestamp=1789473600&skan_first_call_to_skadnetwork_timestamp=1789473600"
                    + "  <- {\"status\":\"ok\",\"conversion_value\":1,\"skan_updated_coarse_value\":0,\"skan_updated_lock_window_value\":false}"
                    + "  applied fine=1 coarse=low lock=false"
            ])
    }

    @Test func revenueIsPercentEncodedJSONByCurrency() throws {
        let transport = ScriptedTransport()
        let sim = simulator(transport: transport)
        try sim.perform(.register)
        #expect(
            try sim.perform(.revenue(amount: 15.53, currency: "KRW", admon: false)).outcome == .revenueAdded(window: 0))
        try sim.perform(.revenue(amount: 2, currency: "USD", admon: false))
        try sim.perform(.revenue(amount: 1.5, currency: "EUR", admon: true))
        #expect(try sim.perform(.revenue(amount: 0, currency: "USD", admon: false)).outcome == .revenueIgnored)
        #expect(sim.device.totalRevenue == ["KRW": 15.53, "USD": 2])
        #expect(sim.device.windowRevenue[0] == ["KRW": 15.53, "USD": 2])
        #expect(sim.device.totalAdmonRevenue == ["EUR": 1.5] && sim.device.windowAdmonRevenue[0] == ["EUR": 1.5])
        try sim.perform(.event("purchase"))
        let target = try #require(transport.targets.last)
        #expect(target.contains("&p0_total_iap_revenue=%7B%22KRW%22%3A15.53%2C%22USD%22%3A2.0%7D&"))
        #expect(target.contains("&p0_total_admon_revenue=%7B%22EUR%22%3A1.5%7D&"))
        #expect(target.contains("&n=purchase&"))
    }

    @Test func advanceAgesTheDeviceByMovingEveryTimestampBack() throws {
        let transport = ScriptedTransport { _ in ScriptedTransport.skan4(fine: 5, coarse: 2, lock: true) }
        let sim = simulator(transport: transport)
        try sim.perform(.register)
        try sim.perform(.session)
        #expect(sim.device.windowLock[0] == Self.start)
        let advance = try sim.perform(.advance(seconds: 49 * 3600))
        #expect(advance.outcome == .advanced(seconds: 176_400))
        #expect(advance.windowLabel == "p1" && advance.age == 176_400)
        #expect(sim.device.firstCall == Self.start - 176_400)
        #expect(sim.device.lastCall == Self.start - 176_400)
        #expect(sim.device.windowLock[0] == Self.start - 176_400)
        #expect(sim.advanced == 176_400)

        // In p1 only p1's coarse value, its previous and lock change; the fine value stays.
        transport.answer = { _ in ScriptedTransport.skan4(fine: 9, coarse: 1, lock: false) }
        let p1 = try sim.perform(.session)
        #expect(p1.outcome == .applied(fine: 9, coarse: 1, lock: false, window: 1))
        #expect(sim.device.fine == 5 && sim.device.prevFine == 0)
        #expect(sim.device.coarse == [2, 1, nil] && sim.device.prevCoarse == [nil, nil, nil])
        #expect(sim.device.windowLock == [Self.start - 176_400, nil, nil])
        #expect(sim.device.lastCall == Self.start)
        #expect(transport.targets.last?.contains("&p0_window_lock=\(Self.start - 176_400)&") == true)

        try sim.perform(.revenue(amount: 3, currency: "USD", admon: false))
        #expect(sim.device.windowRevenue == [nil, ["USD": 3], nil])
    }

    @Test func pastThirtyFiveDaysTheClientStopsAndRevenueCountsInTheTotalOnly() throws {
        let transport = ScriptedTransport()
        let sim = simulator(transport: transport)
        try sim.perform(.register)
        try sim.perform(.advance(seconds: 35 * 86_400 - 1))
        try sim.perform(.session)
        #expect(transport.targets.count == 1)
        let over = try sim.perform(.advance(seconds: 1))
        #expect(over.windowLabel == "over")
        #expect(try sim.perform(.session).outcome == .skippedWindowOver)
        #expect(
            try sim.perform(.revenue(amount: 1, currency: "USD", admon: false)).outcome == .revenueAdded(window: nil))
        #expect(sim.device.totalRevenue == ["USD": 1] && sim.device.windowRevenue == [nil, nil, nil])
        #expect(transport.targets.count == 1)
    }

    @Test(arguments: [
        (#"{"status":"error","reason":"missing argument: a"}"#, SimulationOutcome.failed("missing argument: a")),
        (#"{"status":"error"}"#, .failed("Got error from server")),
        ("", .failed("Failed parsing server response")),
        ("[1]", .failed("Failed parsing server response")),
        (#"{"status":"ok"}"#, .nothingToUpdate),
        (#"{"status":"ok","conversion_value":64}"#, .failed("Illegal values recieved"))
    ])
    func answersWithoutAValueChangeNothing(body: String, expected: SimulationOutcome) throws {
        let transport = ScriptedTransport { _ in ScriptedTransport.json(body) }
        let sim = simulator(transport: transport)
        try sim.perform(.register)
        let before = sim.device
        #expect(try sim.perform(.session).outcome == expected)
        #expect(sim.device == before)
    }

    /// NSURLSession does not treat an HTTP status as an error: only the body counts.
    @Test func anHTTPErrorStatusWithAValueIsStillApplied() throws {
        let transport = ScriptedTransport { _ in
            ScriptedTransport.json(#"{"status":"ok","conversion_value":3}"#, status: 500)
        }
        let sim = simulator(transport: transport)
        try sim.perform(.register)
        let report = try sim.perform(.session)
        #expect(report.outcome == .applied(fine: 3, coarse: nil, lock: false, window: 0))
        #expect(SimulationTranscript.lines(report)[0].contains("<- HTTP 500 {"))
    }

    @Test func s2sForwardsSkanDetailsToLaunchAndEvt() throws {
        let transport = ScriptedTransport { target in
            target.hasPrefix("/api/v2/")
                ? ScriptedTransport.skan4(fine: 1, coarse: 0, lock: false) : ScriptedTransport.ok
        }
        let sim = simulator(s2s: true, transport: transport)
        try sim.perform(.register)
        try sim.perform(.session)
        let event = try sim.perform(.event("level_up"))
        #expect(
            transport.targets.map { $0.split(separator: "?")[0] } == [
                "/api/v1/launch", "/api/v2/conversion_value", "/api/v1/launch", "/api/v2/conversion_value",
                "/api/v1/evt"
            ])
        #expect(
            transport.targets[0].hasPrefix(
                "/api/v1/launch?a=API_KEY&p=iOS&i=com.example.app&idfv=DEV-1&skan_current_conversion_value=0&"))
        #expect(
            transport.targets[4].hasPrefix(
                "/api/v1/evt?a=API_KEY&p=iOS&i=com.example.app&idfv=DEV-1&n=level_up&skan_current_conversion_value=1&prev_fine_value=1&"
            ))
        #expect(event.exchanges.map(\.endpoint) == [.conversionValue, .event])
        #expect(SimulationTranscript.lines(event).count == 2)
    }

    @Test func aTransportFailureStopsTheRun() throws {
        let transport = ScriptedTransport { _ throws(SimulatorTransportError) in
            throw SimulatorTransportError("connection refused")
        }
        let sim = simulator([.register, .session, .session], transport: transport)
        var seen = 0
        #expect(throws: SimulatorTransportError.self) { try sim.run { _ in seen += 1 } }
        #expect(seen == 1)
        #expect(transport.targets.count == 1)
    }

    @Test func theSummaryAndJSONLinesDescribeTheState() throws {
        let transport = ScriptedTransport { _ in ScriptedTransport.skan4(fine: 1, coarse: 0, lock: false) }
        let sim = simulator(
            [.register, .session, .revenue(amount: 2, currency: "USD", admon: false)], transport: transport)
        let reports = try sim.run()
        let summary = SimulationTranscript.summary(reports, sim, now: Self.start)
        #expect(summary[0] == "done: 3 steps, 1 request (1 conversion_value, 0 s2s), 0 errors; simulated clock +0s")
        #expect(summary[1] == "device DEV-1: p0, age 0s")
        #expect(summary[2] == "  fine 1 (prev 0)")
        #expect(summary[3] == "  p0 coarse low (prev -), lock -, iap {\"USD\":2.0}, admon -")
        let line = try JSONParser.parse(SimulationTranscript.json(reports[1]))
        #expect(line["action"] == "session" && line["window"] == "p0" && line["age_s"] == 0)
        #expect(line["outcome"] == ["kind": "applied", "fine": 1, "coarse": 0, "lock": false, "window": "p0"])
        #expect(line["requests"]?[0]?["endpoint"] == "skan4")
        #expect(line["device"]?["fine"] == 1)
        let end = try JSONParser.parse(SimulationTranscript.jsonSummary(reports, sim))
        #expect(end["summary"]?["requests"] == 1 && end["summary"]?["errors"] == 0)
    }
}
