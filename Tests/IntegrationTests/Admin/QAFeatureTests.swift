import Dispatch
import Foundation
import SKANDomain
import SystemPOSIX
import Testing

@testable import SKANMock

/// Faults, time travel and metrics, end to end (live reload is tested in process: `ModelReloadTests`).
@Suite("QA features over real sockets")
struct QAFeatureTests {
    private let skan3 = [
        ("a", "k"), ("i", "com.x"), ("p", "iOS"), ("idfv", "QA"), ("n", "e"), ("conversion_value", "0")
    ]

    private func putFaults(_ mock: TestSKANMock, _ json: String) throws -> CurlClient.Response {
        try mock.client.request("PUT", mock.url("/__admin/faults"), body: Array(json.utf8))
    }

    @Test func injectsAStatusForTheNextNRequestsAndMarksThemInTheJournal() throws {
        let mock = try TestSKANMock()
        #expect(
            try putFaults(mock, #"{"faults":[{"endpoint":"skan3","type":"status","status":503,"times":2}]}"#).status
                == 200)
        #expect(try mock.admin("/__admin/faults")["faults"]?[0]?["remaining"] == 2)
        let statuses = try (0..<3).map { _ in try mock.get("/api/v1/conversion_value", skan3).status }
        #expect(statuses == [503, 503, 200])
        let entries = try mock.journal("device=QA")
        #expect(entries.map { $0["fault"]?["status"]?.intValue } == [503, 503, nil])
        #expect(entries.first?["response"]?["status"] == 503)
        #expect(try mock.admin("/__admin/faults")["faults"] == .array([]))
    }

    @Test func sendsMalformedAndEmptyBodiesAndDropsConnections() throws {
        let mock = try TestSKANMock()
        _ = try putFaults(
            mock,
            #"[{"endpoint":"skan3","type":"malformed","times":1},{"endpoint":"skan4","type":"empty","times":1},{"endpoint":"launch","type":"drop","times":1}]"#
        )
        let malformed = try mock.get("/api/v1/conversion_value", skan3)
        #expect(malformed.status == 200)
        #expect((try? JSONParser.parse(malformed.body)) == nil)
        let empty = try mock.get("/api/v2/conversion_value", skan3)
        #expect(empty.status == 200 && empty.body.isEmpty)
        #expect(throws: CurlClient.Failure.self) { try CurlClient().get(mock.url("/api/v1/launch?a=k")) }
        #expect(try mock.journal("endpoint=launch").first?["fault"]?["type"] == "drop")
        #expect(try mock.client.request("DELETE", mock.url("/__admin/faults")).status == 200)
        #expect(try mock.get("/api/v1/launch", [("a", "k")]).status == 200)
    }

    @Test func aDelayedAnswerDoesNotHoldUpOtherClients() throws {
        // Real timers, watched: the test goes on once the slow answer is held back.
        let timers = WatchedTimer()
        let mock = try TestSKANMock(timer: timers.timer)
        _ = try putFaults(mock, #"[{"endpoint":"skan4","type":"delay","delay_ms":1500}]"#)
        let order = Mutex<[String]>([])
        let done = DispatchSemaphore(value: 0)
        let slowURL = mock.url("/api/v2/conversion_value?idfv=SLOW")
        DispatchQueue.global().async {
            _ = try? CurlClient().get(slowURL)
            order.withLock { $0.append("delayed") }
            done.signal()
        }
        #expect(timers.waitForATimer())
        #expect(try mock.get("/api/v1/conversion_value", skan3).status == 200)
        order.withLock { $0.append("prompt") }
        done.wait()
        #expect(order.withLock { $0 } == ["prompt", "delayed"])
        #expect(try mock.journal("device=SLOW").first?["fault"]?["delay_ms"] == 1500)
    }

    @Test func aSeedGivesTheSameFaultSequence() throws {
        func run() throws -> [Int] {
            let mock = try TestSKANMock()
            _ = try putFaults(mock, #"[{"type":"status","status":500,"probability":0.5,"seed":2024}]"#)
            return try (0..<20).map { _ in try mock.get("/api/v1/conversion_value", skan3).status }
        }
        let first = try run()
        let second = try run()
        #expect(first == second)
        #expect(first.contains(500) && first.contains(200))
    }

    @Test func rejectsABadFaultListWithItsPath() throws {
        let mock = try TestSKANMock()
        let response = try putFaults(mock, #"{"faults":[{"type":"status"}]}"#)
        #expect(response.status == 400)
        #expect(try JSONValue.parse(response)["problems"]?[0]?["path"] == "$.faults[0]")
    }

    @Test func resetClearsFaults() throws {
        let mock = try TestSKANMock()
        _ = try putFaults(mock, #"[{"type":"drop"}]"#)
        #expect(try mock.client.request("POST", mock.url("/__admin/reset"), body: []).status == 200)
        #expect(try mock.get("/api/v1/conversion_value", skan3).status == 200)
    }

    @Test func timeTravelMovesTheWindowAndShowsTheOffset() throws {
        let mock = try TestSKANMock()
        let query = [
            ("a", "k"), ("p", "iOS"), ("i", "com.x"), ("idfv", "TT"), ("n", "__SESSION__"),
            ("skan_current_conversion_value", "1"),
            ("skan_first_call_to_skadnetwork_timestamp", String(TestSKANMock.start))
        ]
        _ = try mock.get("/api/v2/conversion_value", query)
        let moved = try mock.client.request(
            "PUT", mock.url("/__admin/clock"), body: Array(#"{"advance_s": 259200}"#.utf8))
        #expect(try JSONValue.parse(moved)["offset_s"] == 259200)
        _ = try mock.get("/api/v2/conversion_value", query)
        let entries = try mock.journal("device=TT")
        #expect(entries.map { $0["window"]?.stringValue } == ["p0", "p1"])
        #expect(entries.map { $0["clock_offset_s"]?.intValue } == [0, 259200])
        #expect(try mock.admin("/__admin/health")["clock_offset_s"] == 259200)
        let reset = try mock.client.request("PUT", mock.url("/__admin/clock"), body: Array(#"{"offset_s": 0}"#.utf8))
        #expect(try JSONValue.parse(reset)["now_s"]?.intValue == TestSKANMock.start)
        #expect(
            try mock.client.request("PUT", mock.url("/__admin/clock"), body: Array(#"{"offset": 1}"#.utf8)).status
                == 400)
    }

    @Test func startsWithAClockOffset() throws {
        let mock = try TestSKANMock { $0.clockOffsetSeconds = 3600 }
        #expect(try mock.admin("/__admin/clock")["now_s"]?.intValue == TestSKANMock.start + 3600)
    }

    @Test func exposesPrometheusMetrics() throws {
        let mock = try TestSKANMock()
        _ = try mock.get("/api/v1/conversion_value", skan3)
        _ = try mock.get("/api/v1/conversion_value", skan3)
        _ = try mock.get("/api/v1/evt", [("a", "k")])
        let response = try mock.client.get(mock.url("/__admin/metrics"))
        #expect(response.header("Content-Type")?.hasPrefix("text/plain") == true)
        let text = response.text
        #expect(text.contains("skan_mock_requests_total{endpoint=\"skan3\",status=\"200\"} 2\n"))
        #expect(text.contains("skan_mock_requests_total{endpoint=\"event\",status=\"200\"} 1\n"))
        #expect(text.contains("skan_mock_findings_total{code=\"missing_parameter\"}"))
        #expect(text.contains("skan_mock_request_duration_seconds_count 3\n"))
        #expect(text.contains("skan_mock_request_duration_seconds_bucket{le=\"+Inf\"} 3\n"))
        #expect(text.contains("skan_mock_journal_entries 3\n"))
    }
}

@Suite("Faults from the model file")
struct ModelFaultTests {
    @Test func installsTheModelsFaultsAtStart() throws {
        let path = NSTemporaryDirectory() + "skan-mock-faults-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let model = """
            {"name": "with-faults", "skan3": {"mode": "increment", "max": 2},
             "faults": [{"endpoint": "skan3", "type": "status", "status": 502, "times": 1}]}
            """
        try model.write(toFile: path, atomically: true, encoding: .utf8)
        let mock = try TestSKANMock { $0.modelPath = path }
        let query = [("idfv", "MF"), ("conversion_value", "0")]
        #expect(try mock.get("/api/v1/conversion_value", query).status == 502)
        #expect(try mock.get("/api/v1/conversion_value", query).status == 200)
    }
}
