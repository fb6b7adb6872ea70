import Foundation
import SKANDomain
import Testing

/// Issue 40, "wrong today": each rule end to end, over a real socket (Developer Mode from timed
/// answers, a pending window's interval, a reinstall, the app's coarse values and locks, the
/// country, SKAN 3's app-set value). The signatures are in `SignedPostbackTests`.
@Suite("Postbacks, round 3, over real sockets")
struct PostbackRound3Tests {
    static let start = TestSKANMock.start

    private func put(_ mock: TestSKANMock, model: String) throws {
        #expect(try mock.client.request("PUT", mock.url("/__admin/model"), body: Array(model.utf8)).status == 200)
    }

    private func skan4(
        _ mock: TestSKANMock, device: String, event: String = "__SESSION__", first: Int64 = start,
        _ extra: [(String, String)] = []
    ) throws -> JSONValue {
        let response = try mock.get(
            "/api/v2/conversion_value",
            [
                ("a", "K"), ("i", "com.x"), ("p", "iOS"), ("idfv", device), ("n", event),
                ("skan_first_call_to_skadnetwork_timestamp", String(first))
            ] + extra)
        #expect(response.status == 200)
        return (try? JSONParser.parse(response.body)) ?? .null
    }

    private func time(_ seconds: Int64) -> JSONValue { .string(RFC3339.format(seconds: seconds)) }

    /// 40.1: answered fine 1 at minute 0, fine 20 and coarse high at minute 4, fine 2 and coarse
    /// low at minute 7: a phone in Developer Mode sends p0 fine 1, p1 high and p2 low, at tier 3,
    /// with source-app-id 0.
    @Test func developerModeFilesAnswersByTheMinute() throws {
        let mock = try TestSKANMock()
        try put(
            mock,
            model:
                #"{"name":"dm","skan4":{"p0":{"entries":[{"fine":1,"coarse":"low","when":{"event":{"name":"a"}}},{"fine":20,"coarse":"high","when":{"event":{"name":"b"}}},{"fine":2,"coarse":"low","when":{"event":{"name":"c"}}}]}}}"#
        )
        #expect(try skan4(mock, device: "DM", event: "a")["conversion_value"] == 1)
        mock.clock.advance(seconds: 240)
        #expect(try skan4(mock, device: "DM", event: "b")["conversion_value"] == 20)
        mock.clock.advance(seconds: 180)
        #expect(try skan4(mock, device: "DM", event: "c")["conversion_value"] == 2)
        mock.clock.advance(seconds: 30 * 60)
        let answer = try mock.admin("/__admin/devices/DM/postbacks?developer_mode=true")
        let tiers = try #require(answer["skan4"]?.arrayValue)
        #expect(tiers.map { $0["tier"] } == [3])
        let postbacks = try #require(tiers[0]["postbacks"]?.arrayValue)
        #expect(postbacks.map { $0["status"]?.stringValue } == ["sent_by", "sent_by", "sent_by"])
        #expect(postbacks[0]["apple"]?["conversion-value"] == 1 && postbacks[0]["apple"]?["source-app-id"] == 0)
        #expect(postbacks[1]["apple"]?["coarse-conversion-value"] == "high")
        #expect(postbacks[2]["apple"]?["coarse-conversion-value"] == "low")
        #expect(postbacks[2]["send_latest"] == time(Self.start + 19 * 60))
        let aak = try mock.admin("/__admin/devices/DM/postbacks?developer_mode=true&framework=aak")
        #expect(aak["skan4"]?[0]?["postbacks"]?[0]?["jws"]?["payload"]?["publisher-item-identifier"] == 0)
    }

    /// 40.2: an open window says when it will be sent if nothing else happens.
    @Test func aPendingWindowHasItsDeliveryInterval() throws {
        let mock = try TestSKANMock()
        _ = try skan4(mock, device: "PEND")
        let p0 = try mock.admin("/__admin/devices/PEND/postbacks?tier=3")["skan4"]?[0]?["postbacks"]?[0]
        #expect(p0?["status"] == "pending")
        #expect(p0?["send_earliest"] == time(Self.start + 3 * 86_400))
        #expect(p0?["send_latest"] == time(Self.start + 4 * 86_400))
    }

    /// 40.3: a newer first call is a new install: new windows, nothing of the old one, new ids.
    @Test func aReinstallStartsOver() throws {
        let mock = try TestSKANMock()
        try put(
            mock,
            model:
                #"{"name":"lock","skan4":{"p0":{"entries":[{"fine":10,"coarse":"medium","lock":true,"when":{"event":{"name":"buy"}}}]}}}"#
        )
        _ = try skan4(mock, device: "RE", event: "buy")
        let before = try mock.admin("/__admin/devices/RE/postbacks?tier=3")["skan4"]?[0]?["postbacks"]?[0]
        #expect(before?["status"] == "locked" && before?["fine"] == 10)
        mock.clock.advance(seconds: 86_400)
        let reinstalled = Self.start + 86_400
        _ = try skan4(mock, device: "RE", first: reinstalled, [("skan_current_conversion_value", "0")])
        let p0 = try #require(try mock.admin("/__admin/devices/RE/postbacks?tier=3")["skan4"]?[0]?["postbacks"]?[0])
        #expect(p0["window_start"] == time(reinstalled) && p0["window_end"] == time(reinstalled + 2 * 86_400))
        #expect(p0["status"] == "pending" && p0["fine"] == 0)
        #expect(p0["apple"]?["transaction-id"] != before?["apple"]?["transaction-id"])
        let state = try mock.admin("/__admin/devices/RE")
        #expect(state["skan4"]?["p0"]?["events"]?["buy"] == nil && state["skan4"]?["p0"]?["locked"] == false)
    }

    /// 40.4: where the server answered nothing, the app's `pN_coarse` and `pN_window_lock`.
    @Test func theAppsCoarseValuesAndLocksAreUsed() throws {
        let mock = try TestSKANMock()
        try put(mock, model: #"{"name":"p0only","skan4":{"p0":{"entries":[{"fine":3}]}}}"#)
        let first = Self.start - 3 * 86_400
        _ = try skan4(
            mock, device: "APP", first: first,
            [
                ("skan_current_conversion_value", "5"), ("p0_coarse", "1"), ("p1_coarse", "2"),
                ("p1_window_lock", String(Self.start - 3600))
            ])
        mock.clock.advance(seconds: 10 * 86_400)
        let postbacks = try #require(
            try mock.admin("/__admin/devices/APP/postbacks?tier=1")["skan4"]?[0]?["postbacks"]?.arrayValue)
        #expect(postbacks[0]["coarse"] == 1 && postbacks[0]["value_source"] == "app_reported")
        #expect(postbacks[1]["status"] == "locked" && postbacks[1]["coarse"] == 2)
        #expect(postbacks[1]["window_end"] == time(Self.start - 3600))
    }

    /// 40.5: `country-code` in SKAdNetwork 4's winning tier-3 first postback and AdAttributionKit's
    /// outer object, nowhere else; a code that is not ISO 3166-1 alpha-2 is a 400.
    @Test func aCountryWhereAppleAddsIt() throws {
        let mock = try TestSKANMock()
        _ = try skan4(mock, device: "CC")
        let tier3 = try mock.admin("/__admin/devices/CC/postbacks?tier=3&country=DE")["skan4"]?[0]?["postbacks"]
        #expect(tier3?[0]?["apple"]?["country-code"] == "DE" && tier3?[1]?["apple"]?["country-code"] == nil)
        let tier2 = try mock.admin("/__admin/devices/CC/postbacks?tier=2&country=DE")["skan4"]?[0]?["postbacks"]
        #expect(tier2?[0]?["apple"]?["country-code"] == nil)
        let lost = try mock.admin("/__admin/devices/CC/postbacks?tier=3&country=DE&did_win=false")
        #expect(lost["skan4"]?[0]?["postbacks"]?[0]?["apple"]?["country-code"] == nil)
        let aak = try mock.admin("/__admin/devices/CC/postbacks?tier=3&country=DE&framework=aak")
        let outer = aak["skan4"]?[0]?["postbacks"]?[0]?["apple"]
        #expect(
            outer?["country-code"] == "DE"
                && aak["skan4"]?[0]?["postbacks"]?[0]?["jws"]?["payload"]?["country-code"] == nil)
        for bad in ["ZZ", "de", "DEU"] {
            let response = try mock.client.get(mock.url("/__admin/devices/CC/postbacks?country=" + bad))
            #expect(response.status == 400, "\(bad)")
            #expect(
                try JSONParser.parse(response.body)["reason"]
                    == "country must be an ISO 3166-1 alpha-2 country code in capitals, such as US or DE")
        }
    }

    /// 40.7: a SKAN 3 device whose first request already reports 2 (the testing endpoint answers
    /// nothing more) has a postback with 2.
    @Test func aSKAN3ValueTheAppSetItselfIsSent() throws {
        let mock = try TestSKANMock()
        let response = try mock.get(
            "/api/v1/conversion_value",
            [
                ("a", "K"), ("i", "com.x"), ("p", "iOS"), ("idfv", "S3-2"), ("n", "__SESSION__"),
                ("conversion_value", "2"), ("first_call_to_skadnetwork_timestamp", String(Self.start))
            ])
        #expect(response.status == 200)
        mock.clock.advance(seconds: 2 * 86_400)
        let skan3 = try #require(try mock.admin("/__admin/devices/S3-2/postbacks?tier=3")["skan3"])
        #expect(skan3["status"] == "sent_by" && skan3["apple"]?["conversion-value"] == 2)
    }
}
