import Foundation
import HTTPCore
import SKANDomain
import Testing

@testable import SKANMock
@testable import SKANSimulator

/// `skan-mock simulate`'s device, end to end over sockets: each shipped scenario run against a real
/// server in process, the values the client applied checked, and the journal read back.
@Suite("Device simulator end to end")
struct SimulatorTests {
    static let scenarios = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("config/scenarios")

    /// Runs a shipped scenario as the device `device`, over HTTPProbe, on the test server's clock.
    func run(_ file: String, device: String, on mock: TestSKANMock) throws -> (DeviceSimulator, [SimulationStepReport])
    {
        let url = Self.scenarios.appendingPathComponent(file)
        var scenario = try SimulationScenario.parse(text: try String(contentsOf: url, encoding: .utf8), file: url.path)
        scenario.device = device
        let transport = HTTPProbeTransport(base: try SimulatorURL(parsing: mock.url("")))
        let clock = mock.clock
        let simulator = DeviceSimulator(scenario: scenario, transport: transport, clock: { clock.nowSeconds() })
        return (simulator, try simulator.run())
    }

    func count(_ mock: TestSKANMock, _ query: String) throws -> Int64? {
        try mock.admin("/__admin/requests/count?" + query)["count"]?.intValue
    }

    /// The answers a step's conversion request was applied with.
    func applied(_ reports: [SimulationStepReport]) -> [SimulationOutcome] {
        reports.filter { $0.exchanges.contains { $0.endpoint == .conversionValue } || $0.outcome == .skippedWindowOver }
            .map(\.outcome)
    }

    @Test func lifecycleReplaysSeed001() throws {
        let mock = try TestSKANMock()
        let (simulator, reports) = try run("lifecycle.json", device: "SIM-LIFECYCLE", on: mock)
        #expect(
            reports.map(\.outcome) == [
                .registered(firstCall: TestSKANMock.start),
                .applied(fine: 1, coarse: 0, lock: false, window: 0),
                .applied(fine: 1, coarse: 0, lock: false, window: 0),
                .revenueAdded(window: 0),
                .applied(fine: 10, coarse: 1, lock: false, window: 0)
            ])
        #expect(simulator.device.fine == 10 && simulator.device.prevFine == 1)
        #expect(simulator.device.coarse[0] == 1 && simulator.device.prevCoarse[0] == 0)
        #expect(simulator.device.totalRevenue == ["KRW": 15.53])

        let conversions = try mock.journal("endpoint=skan4&device=SIM-LIFECYCLE")
        #expect(conversions.map { $0["event"]?.stringValue } == ["__SESSION__", "event_name", "revenue_event_name"])
        #expect(conversions.allSatisfy { $0["window"]?.stringValue == "p0" })
        #expect(conversions.last?["params"]?["skan_total_revenue_by_currency"]?.stringValue == "{\"KRW\":15.53}")
        #expect(conversions.last?["params"]?["p0_total_iap_revenue"]?.stringValue == "{\"KRW\":15.53}")
        #expect(try count(mock, "endpoint=launch&device=SIM-LIFECYCLE") == 2)
        #expect(try count(mock, "endpoint=event&device=SIM-LIFECYCLE") == 2)
        #expect(
            try mock.journal("endpoint=event&device=SIM-LIFECYCLE").map { $0["event"]?.stringValue } == [
                "event_name", "revenue_event_name"
            ])
        // A faithful client sends nothing the server has to complain about.
        #expect(try count(mock, "device=SIM-LIFECYCLE") == 7)
        #expect(try count(mock, "device=SIM-LIFECYCLE&has_issues=false") == 7)
    }

    /// The simulator and the test suite's line-for-line replica of the snippet send the same
    /// requests for the lifecycle example (apart from the device id).
    @Test func lifecycleSendsWhatTheReplicaSends() throws {
        let mock = try TestSKANMock()
        var scenario = SimulationScenario.builtIn
        scenario.device = "SIM-TWIN"
        scenario.s2s = false
        scenario.app.idfa = "IDFA"
        let clock = mock.clock
        try DeviceSimulator(
            scenario: scenario, transport: HTTPProbeTransport(base: try SimulatorURL(parsing: mock.url(""))),
            clock: { clock.nowSeconds() }
        ).run()
        let replica = SKANSnippetReplica(idfv: "REPLICA-TWIN", mock: mock)
        replica.register()
        try replica.update()
        try replica.update("event_name")
        replica.addRevenue(15.53, "KRW")
        try replica.update("revenue_event_name")

        func params(_ device: String) throws -> [[JSONMember]] {
            try mock.journal("endpoint=skan4&device=\(device)").map { entry in
                (entry["params"]?.objectValue ?? []).filter { $0.key != "idfv" }
            }
        }
        let simulated = try params("SIM-TWIN")
        #expect(simulated.count == 3)
        let replicated = try params("REPLICA-TWIN")
        #expect(simulated == replicated)
    }

    @Test func windowsCrossesP0P1P2AndStopsWhenOver() throws {
        let mock = try TestSKANMock()
        let (simulator, reports) = try run("windows.json", device: "SIM-WINDOWS", on: mock)
        #expect(
            applied(reports) == [
                .applied(fine: 1, coarse: 0, lock: false, window: 0),
                .applied(fine: 10, coarse: 1, lock: false, window: 0),  // 4.99 USD: any revenue
                .applied(fine: 20, coarse: 2, lock: false, window: 0),  // + 5 EUR = 10.39 USD
                .applied(fine: 20, coarse: 0, lock: false, window: 1),  // p1 session
                .applied(fine: 20, coarse: 1, lock: false, window: 1),  // 2.5 EUR ad revenue in p1
                .applied(fine: 20, coarse: 0, lock: false, window: 2),  // p2 session
                .applied(fine: 20, coarse: 1, lock: false, window: 2),  // 3 USD in p2: any revenue, under 10
                .skippedWindowOver
            ])
        #expect(
            reports.filter { if case .advance = $0.step { return true } else { return false } }.map(\.windowLabel)
                == ["p1", "p2", "over"])
        let device = simulator.device
        #expect(device.fine == 20 && device.prevFine == 10)
        #expect(device.coarse == [2, 1, 1] && device.prevCoarse == [1, 0, 0])
        #expect(device.windowLock == [nil, nil, nil])
        #expect(device.totalRevenue == ["USD": 8.99, "EUR": 5] && device.totalAdmonRevenue == ["EUR": 2.5])
        #expect(device.windowRevenue == [["USD": 4.99, "EUR": 5], nil, ["USD": 3]])
        #expect(device.windowAdmonRevenue == [nil, ["EUR": 2.5], nil])
        let hour: Int64 = 3600
        let day: Int64 = 86_400  // typed first: Swift 6.0 times out on the literals alone
        let age = 49 * hour + 8 * day + 36 * day
        #expect(device.firstCall == TestSKANMock.start - age)
        #expect(simulator.advanced == age)

        let entries = try mock.journal("device=SIM-WINDOWS")
        #expect(entries.map { $0["window"]?.stringValue } == ["p0", "p0", "p0", "p1", "p1", "p2", "p2"])
        #expect(entries.map { $0["endpoint"]?.stringValue }.allSatisfy { $0 == "skan4" })
        // In p1 and p2 the client keeps sending its last p0 fine value, which is clean.
        #expect(entries.dropFirst(3).allSatisfy { $0["params"]?["skan_current_conversion_value"]?.stringValue == "20" })
        #expect(entries[4]["params"]?["p1_total_admon_revenue"]?.stringValue == "{\"EUR\":2.5}")
        #expect(try count(mock, "device=SIM-WINDOWS&window=over") == 0)
        #expect(try count(mock, "device=SIM-WINDOWS&has_issues=false") == 7)
    }

    /// The snippet keeps asking after the server said lock, and resends the lock time: the server
    /// answers, and flags those updates (iOS would ignore them).
    @Test func revenueLockLocksP2AndTheServerFlagsLaterUpdates() throws {
        let mock = try TestSKANMock()
        let (simulator, reports) = try run("revenue-lock.json", device: "SIM-LOCK", on: mock)
        #expect(
            applied(reports) == [
                .applied(fine: 1, coarse: 0, lock: false, window: 0),
                .applied(fine: 1, coarse: 0, lock: false, window: 2),
                .applied(fine: 1, coarse: 1, lock: false, window: 2),  // 6 USD: any revenue, under 10
                .applied(fine: 1, coarse: 2, lock: true, window: 2),  // + 5 EUR = 11.4 USD: high, lock
                .applied(fine: 1, coarse: 2, lock: true, window: 2),
                .applied(fine: 1, coarse: 2, lock: true, window: 2),
                .skippedWindowOver
            ])
        // The lock time is "now" when applied, moved back with the clock like every timestamp.
        #expect(simulator.device.windowLock == [nil, nil, TestSKANMock.start - 30 * 86_400])
        #expect(simulator.device.coarse[2] == 2 && simulator.device.prevCoarse[2] == 2)

        let entries = try mock.journal("device=SIM-LOCK")
        #expect(entries.map { $0["window"]?.stringValue } == ["p0", "p2", "p2", "p2", "p2", "p2"])
        #expect(
            entries[3]["response"]?["body"]?.stringValue
                == "{\"status\":\"ok\",\"conversion_value\":1,\"skan_updated_coarse_value\":2,\"skan_updated_lock_window_value\":true}"
        )
        #expect(entries.prefix(4).allSatisfy { $0["issues"]?.arrayValue?.isEmpty == true })
        #expect(entries[4]["params"]?["p2_window_lock"]?.stringValue == String(TestSKANMock.start - 3600))
        for entry in entries.suffix(2) {
            let issues = entry["issues"]?.arrayValue ?? []
            #expect(issues.map { $0["code"]?.stringValue } == ["update_after_window_lock"])
            #expect(issues.first?["param"]?.stringValue == "p2_window_lock")
        }
        #expect(try count(mock, "device=SIM-LOCK&has_issues=false") == 4)
    }

    @Test func anErrorAnswerIsReportedNotFatal() throws {
        let mock = try TestSKANMock(configure: { $0.strict = true })
        // "DOLLARS" is not a currency code: a finding, which --strict turns into an error answer.
        let scenario = SimulationScenario(
            name: "strict", device: "SIM-STRICT",
            steps: [
                .register, .revenue(amount: 1, currency: "DOLLARS", admon: false), .event("purchase")
            ])
        let clock = mock.clock
        let simulator = DeviceSimulator(
            scenario: scenario, transport: HTTPProbeTransport(base: try SimulatorURL(parsing: mock.url(""))),
            clock: { clock.nowSeconds() })
        let reports = try simulator.run()
        guard case .failed(let reason)? = reports.last?.outcome else {
            Issue.record("expected an error, got \(String(describing: reports.last?.outcome))")
            return
        }
        #expect(!reason.isEmpty)
        #expect(simulator.device.fine == 0)
        #expect(SimulationTranscript.summary(reports, simulator, now: clock.nowSeconds())[0].contains(", 1 error;"))
    }

    @Test func anUnreachableServerStopsTheRun() throws {
        let closedPort: Int
        do {
            let mock = try TestSKANMock()
            closedPort = mock.server.port
        }
        let simulator = DeviceSimulator(
            scenario: .builtIn,
            transport: HTTPProbeTransport(
                base: try SimulatorURL(parsing: "http://127.0.0.1:\(closedPort)"), timeout: 2),
            clock: { SystemClock().nowSeconds() })
        #expect(throws: SimulatorTransportError.self) { try simulator.run() }
    }
}
