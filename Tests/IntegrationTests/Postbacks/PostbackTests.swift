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

    private func after40Days() throws -> TestSKANMock {
        let mock = try TestSKANMock()
        #expect(try mock.client.request("PUT", mock.url("/__admin/model"), body: Array(model.utf8)).status == 200)
        #expect(try session(mock) == 200)
        try advance(mock, days: 3)
        #expect(try session(mock) == 200)
        try advance(mock, days: 40)
        return mock
    }

    /// Issue 29.1-29.3: digits by postback and tier, `source-app-id` only in the tier-3 first
    /// postback, a transaction-id per postback that stays the same on a second read.
    @Test func appleFieldsByTierAndPostback() throws {
        let mock = try after40Days()
        let tier3 = try #require(try mock.admin("/__admin/devices/PB-1/postbacks?tier=3")["skan4"]?[0]?["postbacks"])
        #expect(tier3[0]?["apple"]?["source-identifier"] == "1234" && tier3[0]?["apple"]?["source-app-id"] != nil)
        #expect(tier3[1]?["apple"]?["source-identifier"] == "12" && tier3[1]?["apple"]?["source-app-id"] == nil)
        let digits = try mock.admin("/__admin/devices/PB-1/postbacks?tier=3&digits=2")
        #expect(digits["skan4"]?[0]?["postbacks"]?[0]?["apple"]?["source-identifier"] == "12")
        let tier2 = try mock.admin("/__admin/devices/PB-1/postbacks?tier=2")["skan4"]?[0]?["postbacks"]?[0]?["apple"]
        #expect(tier2?["source-identifier"] == "123" && tier2?["source-app-id"] == nil)
        let again = try #require(try mock.admin("/__admin/devices/PB-1/postbacks?tier=3")["skan4"]?[0]?["postbacks"])
        let ids = (0..<2).compactMap { tier3[$0]?["apple"]?["transaction-id"]?.stringValue }
        #expect(ids.count == 2 && ids[0] != ids[1] && ids[0] != "00000000-0000-0000-0000-000000000000")
        #expect(ids == (0..<2).compactMap { again[$0]?["apple"]?["transaction-id"]?.stringValue })
    }

    /// Issue 29.4: a device first heard from in p1 has its first postback, with the p0 value it reported.
    @Test func aDeviceFirstHeardInP1HasItsFirstPostback() throws {
        let mock = try TestSKANMock()
        #expect(
            try mock.get(
                "/api/v2/conversion_value",
                [
                    ("a", "K"), ("i", "com.x"), ("p", "iOS"), ("idfv", "LATE"), ("n", "__SESSION__"),
                    ("skan_current_conversion_value", "7"),
                    ("skan_first_call_to_skadnetwork_timestamp", String(TestSKANMock.start - 3 * 86_400))
                ]
            ).status == 200)
        let p0 = try mock.admin("/__admin/devices/LATE/postbacks?tier=2")["skan4"]?[0]?["postbacks"]?[0]
        #expect(p0?["status"] == "sent_by" && p0?["fine"] == 7 && p0?["value_source"] == "app_reported")
    }

    /// Issue 29.7, 29.8: a network that did not win; Developer Mode's minutes.
    @Test func nonWinningAndDeveloperMode() throws {
        let mock = try after40Days()
        let lost = try mock.admin("/__admin/devices/PB-1/postbacks?tier=3&did_win=false")
        #expect(lost["did_win"] == false)
        let postbacks = try #require(lost["skan4"]?[0]?["postbacks"]?.arrayValue)
        #expect(postbacks.map { $0["status"]?.stringValue } == ["sent_by", "never_sent", "never_sent"])
        #expect(postbacks[0]["apple"]?["did-win"] == false && postbacks[0]["apple"]?["conversion-value"] == nil)
        let developer = try mock.admin("/__admin/devices/PB-1/postbacks?tier=2&developer_mode=true")
        let p0 = developer["skan4"]?[0]?["postbacks"]?[0]
        let start = RFC3339.format(milliseconds: TestSKANMock.start * 1000)
        let end = RFC3339.format(milliseconds: (TestSKANMock.start + 180) * 1000)
        #expect(p0?["window_start"]?.stringValue == start && p0?["window_end"]?.stringValue == end)
        #expect(p0?["send_latest"]?.stringValue == RFC3339.format(milliseconds: (TestSKANMock.start + 780) * 1000))
    }

    /// Issue 29.9: AdAttributionKit's format; unsigned over a server without --https, saying why.
    @Test func adAttributionKitFormat() throws {
        let mock = try after40Days()
        let answer = try mock.admin("/__admin/devices/PB-1/postbacks?tier=3&framework=aak")
        let p0 = try #require(answer["skan4"]?[0]?["postbacks"]?[0])
        #expect(answer["framework"] == "aak")
        #expect(p0["apple"]?["conversion-value"] == 10 && p0["apple"]?["jws-string"]?.stringValue != nil)
        #expect(p0["jws"]?["header"]?["alg"] == "ES256" && p0["jws"]?["payload"]?["version"] == nil)
        #expect(p0["jws"]?["payload"]?["publisher-item-identifier"] != nil)
        #expect(p0["jws"]?["signature"] == .null && p0["jws"]?["reason"]?.stringValue?.hasPrefix("not signed") == true)
        #if SKAN_MOCK_TLS
            // Issue 50.1: the reason names the option that exists (`--https-port`; `--https` is no option).
            let skan = try mock.admin("/__admin/devices/PB-1/postbacks?tier=3")
            let reason = skan["skan4"]?[0]?["postbacks"]?[0]?["signature"]?["reason"]?.stringValue ?? ""
            #expect(reason.contains("(--https-port)"), "\(reason)")
            #expect(p0["jws"]?["reason"]?.stringValue?.contains("(--https-port)") == true)
        #endif
    }

    /// Bad values answer 400 naming the parameter and the allowed values (issue 29), a repeated or
    /// signed tier too (issue 30.20).
    @Test(arguments: [
        ("tier=1&tier=2", "tier is given twice; give it once"), ("tier=%2B1", "tier must be 0, 1, 2 or 3"),
        ("did_win=no", "did_win must be true or false"), ("developer_mode=on", "developer_mode must be true or false"),
        ("framework=skan4", "framework must be skan or aak"), ("digits=1", "digits must be 2, 3 or 4")
    ])
    func badParametersAre400(query: String, message: String) throws {
        let mock = try TestSKANMock()
        #expect(try session(mock) == 200)
        let response = try mock.client.get(mock.url("/__admin/devices/PB-1/postbacks?" + query))
        #expect(response.status == 400)
        let body = try JSONParser.parse(response.body)
        #expect(body["reason"]?.stringValue == message, "\(response.text)")
    }

    /// Issue 29.5: SKAN 3's postback is version 3.0 with an integer campaign-id, and the value only
    /// above the privacy threshold (tier 0: none).
    @Test func skan3PostbackHasACampaignID() throws {
        let mock = try TestSKANMock()
        #expect(
            try mock.get(
                "/api/v1/conversion_value",
                [
                    ("a", "K"), ("i", "com.x"), ("p", "iOS"), ("idfv", "S3"), ("n", "__SESSION__"),
                    ("conversion_value", "0")
                ]
            ).status == 200)
        try advance(mock, days: 3)
        let met = try #require(try mock.admin("/__admin/devices/S3/postbacks?tier=2")["skan3"])
        #expect(met["status"] == "sent_by" && met["apple"]?["version"] == "3.0" && met["apple"]?["campaign-id"] == 42)
        #expect(met["apple"]?["source-identifier"] == nil && met["apple"]?["conversion-value"]?.intValue != nil)
        let notMet = try #require(try mock.admin("/__admin/devices/S3/postbacks?tier=0")["skan3"])
        #expect(notMet["apple"]?["conversion-value"] == nil && notMet["apple"]?["source-app-id"] == nil)
    }

    /// Issue 29.4: with nothing known of p0, the first postback carries registration's 0 and says so.
    @Test func aDeviceWithNothingKnownOfP0CarriesRegistrationsZero() throws {
        let mock = try TestSKANMock()
        #expect(
            try mock.get(
                "/api/v2/conversion_value",
                [
                    ("a", "K"), ("i", "com.x"), ("p", "iOS"), ("idfv", "REG"), ("n", "__SESSION__"),
                    ("skan_first_call_to_skadnetwork_timestamp", String(TestSKANMock.start - 10 * 86_400))
                ]
            ).status == 200)
        let p0 = try mock.admin("/__admin/devices/REG/postbacks?tier=3")["skan4"]?[0]?["postbacks"]?[0]
        #expect(p0?["fine"] == 0 && p0?["value_source"] == "registration" && p0?["apple"]?["conversion-value"] == 0)
    }
}
