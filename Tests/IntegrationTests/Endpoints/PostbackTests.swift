import Foundation
import SKANDomain
import Testing

/// `GET /__admin/devices/{id}/postbacks` with a device driven through all three windows by time
/// travel, with a lock in p1 (issue 25).
@Suite("Postbacks over real sockets")
struct PostbackTests {
    private let model =
        #"{"name":"pb","skan4":{"p0":{"entries":[{"fine":10,"coarse":1,"when":{"event":{"name":"__SESSION__"}}}]},"p1":{"entries":[{"coarse":2,"lock":true,"when":{"event":{"name":"__SESSION__"}}}]},"p2":{"entries":[{"coarse":0,"when":{"event":{"name":"__SESSION__"}}}]}}}"#

    private func session(_ mock: TestSKANMock) throws -> Int {
        try mock.get(
            "/api/v2/conversion_value",
            [
                ("a", "K"), ("i", "com.x"), ("p", "iOS"), ("idfv", "PB-1"), ("n", "__SESSION__"),
                ("skan_current_conversion_value", "0"),
                ("skan_first_call_to_skadnetwork_timestamp", String(TestSKANMock.start))
            ]
        ).status
    }

    private func advance(_ mock: TestSKANMock, days: Int) throws {
        let body = Array(#"{"advance_s":\#(days * 86_400)}"#.utf8)
        #expect(try mock.client.request("PUT", mock.url("/__admin/clock"), body: body).status == 200)
    }

    @Test func aDeviceThroughItsThreeWindows() throws {
        let mock = try TestSKANMock()
        #expect(try mock.client.request("PUT", mock.url("/__admin/model"), body: Array(model.utf8)).status == 200)
        #expect(try session(mock) == 200)  // p0: fine 10, coarse 1
        var report = try mock.admin("/__admin/devices/PB-1/postbacks?tier=2")
        #expect(report["skan4"]?[0]?["postbacks"]?[0]?["status"] == "pending")
        #expect(report["skan4"]?[0]?["postbacks"]?[0]?["fine"] == 10)
        try advance(mock, days: 3)
        #expect(try session(mock) == 200)  // p1: coarse 2 and a lock
        try advance(mock, days: 40)
        report = try mock.admin("/__admin/devices/PB-1/postbacks")
        let tiers = try #require(report["skan4"]?.arrayValue)
        #expect(tiers.map { $0["tier"]?.intValue } == [0, 1, 2, 3])
        let tier2 = try #require(tiers[2]["postbacks"]?.arrayValue)
        #expect(tier2.map { $0["status"]?.stringValue } == ["sent_by", "locked", "never_sent"])
        #expect(tier2[0]["apple"]?["conversion-value"] == 10)
        #expect(tier2[0]["meaning"]?[0]?["when"]?["event"]?["name"] == "__SESSION__")
        #expect(tier2[1]["apple"]?["coarse-conversion-value"] == "high")
        #expect(tier2[1]["window_end"] == "2026-09-18T12:00:00.000Z")  // locked at the p1 session, day 3
        #expect(tiers[0]["postbacks"]?[1]?["status"] == "never_sent")
        #expect(try mock.client.get(mock.url("/__admin/devices/PB-1/postbacks?tier=9")).status == 400)
        #expect(try mock.client.get(mock.url("/__admin/devices/NOBODY/postbacks")).status == 404)
    }
}
