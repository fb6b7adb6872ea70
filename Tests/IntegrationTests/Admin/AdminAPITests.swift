import Dispatch
import Foundation
import SKANDomain
import SystemPOSIX
import Testing

@Suite("Admin API over real sockets")
struct AdminAPITests {
    private func session(_ device: String, _ event: String = "__SESSION__") -> [(String, String)] {
        [("a", "k"), ("i", "com.x"), ("p", "iOS"), ("idfv", device), ("n", event), ("conversion_value", "0")]
    }

    @Test func healthReportsVersionModelAndJournal() throws {
        let mock = try TestSKANMock { $0.journalSize = 5 }
        for _ in 0..<7 { _ = try mock.get("/api/v1/conversion_value", session("D")) }
        let health = try mock.admin("/__admin/health")
        #expect(health["status"] == "ok")
        #expect(health["version"]?.stringValue?.isEmpty == false)
        #expect(health["uptime_s"]?.intValue != nil)
        #expect(health["model"]?["name"] == "singular-testing")
        #expect(health["journal"]?["size"] == 5)
        #expect(health["journal"]?["dropped"] == 2)
    }

    @Test func aModelThatIsNotUTF8IsRefusedWithTheOffset() throws {
        let mock = try TestSKANMock()
        let body = Array(#"{"name": "caf"#.utf8) + [0xE9] + Array(#"", "skan3": {"mode": "increment", "max": 2}}"#.utf8)
        let answer = try mock.client.request("PUT", mock.url("/__admin/model"), body: body)
        #expect(answer.status == 400)
        #expect(answer.text.contains("not UTF-8: byte 0xE9 at byte offset 13"))
        #expect(try mock.admin("/__admin/model")["name"] == "singular-testing")
    }

    @Test func filtersTheJournal() throws {
        let mock = try TestSKANMock()
        _ = try mock.get("/api/v1/conversion_value", session("A", "open"))
        _ = try mock.get("/api/v1/conversion_value", session("B", "buy"))
        _ = try mock.get("/api/v1/conversion_value", session("A", "buy"))
        _ = try mock.get("/api/v1/evt", [("a", "k")])
        #expect(try mock.journal("device=A").count == 2)
        #expect(try mock.journal("event=buy").count == 2)
        #expect(try mock.journal("endpoint=event").count == 1)
        #expect(try mock.journal("has_issues=true").map { $0["endpoint"]?.stringValue } == ["event"])
        let all = try mock.journal()
        let firstID = try #require(all.first?["id"]?.intValue)
        #expect(try mock.journal("since_id=\(firstID)").count == 3)
        let page = try mock.admin("/__admin/requests?limit=1")
        #expect(page["total"] == 4)
        #expect(page["requests"]?.arrayValue?.count == 1)
        #expect(try mock.admin("/__admin/requests/count?device=B")["count"] == 1)
    }

    @Test func rejectsAnUnknownFilterInsteadOfIgnoringIt() throws {
        let mock = try TestSKANMock()
        let response = try mock.client.get(mock.url("/__admin/requests?devcie=A"))
        #expect(response.status == 400)
        #expect(try JSONValue.parse(response)["reason"]?.stringValue?.contains("devcie") == true)
        #expect(try mock.client.get(mock.url("/__admin/requests?limit=-1")).status == 400)
    }

    @Test func clearsTheJournalAndResetsDevices() throws {
        let mock = try TestSKANMock()
        _ = try mock.get("/api/v1/conversion_value", session("C"))
        #expect(try mock.client.get(mock.url("/__admin/devices/C")).status == 200)
        #expect(try mock.client.request("DELETE", mock.url("/__admin/requests")).status == 200)
        #expect(try mock.journal().isEmpty)
        #expect(try mock.client.get(mock.url("/__admin/devices/C")).status == 200)
        _ = try mock.get("/api/v1/conversion_value", session("C"))
        #expect(try mock.client.request("POST", mock.url("/__admin/reset"), body: []).status == 200)
        #expect(try mock.journal().isEmpty)
        #expect(try mock.client.get(mock.url("/__admin/devices/C")).status == 404)
    }

    @Test func showsADevicesState() throws {
        let mock = try TestSKANMock()
        _ = try mock.get("/api/v1/conversion_value", session("DEV-1", "level_up"))
        let state = try mock.admin("/__admin/devices/DEV-1")
        #expect(state.objectValue?.isEmpty == false)
        #expect(state.description.contains("level_up"))
    }

    @Test func replacesTheModelAndRejectsABadOne() throws {
        let mock = try TestSKANMock()
        let current = try mock.client.get(mock.url("/__admin/model"))
        #expect(try JSONValue.parse(current)["name"] == "singular-testing")

        let bad = try mock.client.request(
            "PUT", mock.url("/__admin/model"), body: Array(#"{"name":"x","skan3":{"mode":"increment","max":99}}"#.utf8))
        #expect(bad.status == 400)
        let reasons = try JSONValue.parse(bad)
        #expect(reasons["status"] == "error")
        #expect(reasons["problems"]?[0]?["path"]?.stringValue?.hasPrefix("$.skan3") == true)
        #expect(try mock.admin("/__admin/health")["model"]?["name"] == "singular-testing")

        let retention = try String(contentsOfFile: Self.configPath("retention.json"), encoding: .utf8)
        let good = try mock.client.request("PUT", mock.url("/__admin/model"), body: Array(retention.utf8))
        #expect(good.status == 200)
        #expect(try mock.admin("/__admin/health")["model"]?["name"] == "singular-retention")
    }

    @Test func requiresTheAdminTokenWhenSet() throws {
        let mock = try TestSKANMock { $0.adminToken = "s3cret" }
        let refused = try mock.client.get(mock.url("/__admin/health"))
        #expect(refused.status == 401)
        // Issue 50.9: the body says which header to send.
        #expect(refused.text.contains("Authorization: Bearer"), "\(refused.text)")
        let underPrefix = try mock.client.get(
            mock.url("/t/x/__admin/tenants"), headers: ["Authorization: Bearer s3cret"])
        #expect(underPrefix.status == 404)
        #expect(underPrefix.text.contains("at the root: GET /__admin/tenants"), "\(underPrefix.text)")
        #expect(
            try mock.client.get(mock.url("/__admin/health"), headers: ["Authorization: Bearer wrong"]).status == 401)
        #expect(
            try mock.client.get(mock.url("/__admin/health"), headers: ["Authorization: Bearer s3cret"]).status == 200)
        // The app under test never sends a token: Singular's endpoints stay open.
        #expect(try mock.get("/api/v1/conversion_value", session("T")).status == 200)
    }

    static func configPath(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("config/\(name)").path
    }

    @Test func servesTheOpenAPIDocumentAndBoundsTheClock() throws {
        let mock = try TestSKANMock()
        let document = try mock.client.get(mock.url("/__admin/openapi.yaml"))
        #expect(document.status == 200)
        #expect(document.header("Content-Type") == "application/yaml")
        #expect(document.text.hasPrefix("openapi: 3.1.0\n"))
        for body in [
            #"{"offset_s": 9223372036854775807}"#, #"{"offset_s": -9223372036854775808}"#, #"{"advance_s": 3155760001}"#
        ] {
            let response = try mock.client.request("PUT", mock.url("/__admin/clock"), body: Array(body.utf8))
            #expect(response.status == 400, "\(body)")
        }
        #expect(try mock.admin("/__admin/clock")["offset_s"] == 0)
    }

    /// Advances sent at once all count: each used to read the offset, add and write it back, so
    /// one that raced another was lost (3,996 of 4,000 applied).
    @Test func concurrentClockAdvancesAllCount() throws {
        let mock = try TestSKANMock()
        let clients = 4
        let advances = 150
        let failures = Mutex(0)
        let url = mock.url("/__admin/clock")
        DispatchQueue.concurrentPerform(iterations: clients) { _ in
            let client = CurlClient()
            for _ in 0..<advances {
                let response = try? client.request("PUT", url, body: Array(#"{"advance_s": 1}"#.utf8))
                if response?.status != 200 { failures.withLock { $0 += 1 } }
            }
        }
        #expect(failures.withLock { $0 } == 0)
        #expect(try mock.admin("/__admin/clock")["offset_s"] == .int(Int64(clients * advances)))
    }
}
