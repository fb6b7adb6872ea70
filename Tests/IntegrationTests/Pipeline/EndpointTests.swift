import SKANDomain
import Testing

@Suite("Singular endpoints over real sockets")
struct EndpointTests {
    private let session = [("a", "k"), ("i", "com.example.app"), ("p", "iOS"), ("idfv", "E-1"), ("n", "__SESSION__")]

    @Test func skan3NamesAMissingOrBadConversionValue() throws {
        let mock = try TestSKANMock()
        let missing = try JSONValue.parse(mock.get("/api/v1/conversion_value", session))
        #expect(missing["status"] == "error")
        #expect(missing["reason"]?.stringValue?.contains("conversion_value") == true)
        let bad = try JSONValue.parse(mock.get("/api/v1/conversion_value", session + [("conversion_value", "two")]))
        #expect(bad["status"] == "error")
        #expect(bad["reason"]?.stringValue?.contains("conversion_value") == true)
    }

    @Test func acceptsAFormPostMergedWithTheQuery() throws {
        let mock = try TestSKANMock()
        let body = Array("n=__SESSION__&conversion_value=1&idfv=FORM".utf8)
        let response = try mock.client.request(
            "POST", mock.url("/api/v1/conversion_value?a=k&p=iOS&i=com.example.app"), body: body,
            headers: ["Content-Type: application/x-www-form-urlencoded"]
        )
        #expect(response.text == "{\"conversion_value\":2,\"status\":\"ok\"}")
        let entry = try #require(try mock.journal("device=FORM").first)
        #expect(entry["method"] == "POST")
        #expect(entry["params"]?["a"] == "k")
        #expect(entry["params"]?["conversion_value"] == "1")
    }

    @Test func rejectsANonFormPostBodyWith415() throws {
        let mock = try TestSKANMock()
        let response = try mock.client.request(
            "POST", mock.url("/api/v2/conversion_value"), body: Array("{}".utf8),
            headers: ["Content-Type: application/json"]
        )
        #expect(response.status == 415)
    }

    @Test func answersHeadLikeGetWithoutABody() throws {
        let mock = try TestSKANMock()
        let response = try mock.client.request("HEAD", mock.url("/api/v1/conversion_value?conversion_value=0&idfv=H"))
        #expect(response.status == 200)
        #expect(response.body.isEmpty)
        #expect(response.header("Content-Length") == "36")
        #expect(try mock.journal("device=H").first?["method"] == "HEAD")
    }

    @Test func answersOtherMethodsWith405AndAllow() throws {
        let mock = try TestSKANMock()
        let response = try mock.client.request("PUT", mock.url("/api/v2/conversion_value"), body: [])
        #expect(response.status == 405)
        #expect(response.header("Allow") == "GET, HEAD, POST")
    }

    @Test func keepsRepeatedKeysInTheJournalAndUsesTheLast() throws {
        let mock = try TestSKANMock()
        let response = try mock.get(
            "/api/v1/conversion_value", [("idfv", "R"), ("conversion_value", "0"), ("conversion_value", "1")])
        #expect(response.text == "{\"conversion_value\":2,\"status\":\"ok\"}")
        let entry = try #require(try mock.journal("device=R").first)
        #expect(entry["params"]?["conversion_value"] == ["0", "1"])
    }

    @Test func s2sNamesTheMissingArgumentInSingularsWords() throws {
        let mock = try TestSKANMock()
        let response = try mock.get("/api/v1/evt", [("a", "k"), ("p", "iOS"), ("i", "com.x"), ("idfv", "S")])
        #expect(response.text == "{\"status\":\"error\",\"reason\":\"missing argument: n\"}")
        let launch = try mock.get("/api/v1/launch", [("p", "iOS")])
        #expect(launch.text == "{\"status\":\"error\",\"reason\":\"missing argument: a\"}")
    }

    /// Issue 50.12: a connected-TV back end's `p=CTV` is taken on v1 launch, v1 evt and v2 evt,
    /// and the journal files the request under its `sdid`.
    @Test func ctvIsTakenOnTheS2SEndpointsAndIdentifiedBySDID() throws {
        let mock = try TestSKANMock()
        for path in ["/api/v1/launch", "/api/v1/evt", "/api/v2/evt"] {
            let response = try mock.get(
                path, [("a", "k"), ("p", "CTV"), ("i", "com.example.tv"), ("sdid", "TV-1"), ("n", "play")])
            #expect(response.text == "{\"status\":\"ok\"}", "\(path)")
        }
        let entries = try mock.journal("device=TV-1")
        #expect(entries.count == 3)
        #expect(entries.allSatisfy { $0["issues"]?.arrayValue?.isEmpty == true })
    }

    @Test func recordsFindingsForABadClientAndRejectsThemWhenStrict() throws {
        let millis = String(TestSKANMock.start * 1000)
        let bad =
            session + [("skan_current_conversion_value", "64"), ("skan_first_call_to_skadnetwork_timestamp", millis)]
        let lenient = try TestSKANMock()
        #expect(try JSONValue.parse(lenient.get("/api/v2/conversion_value", bad))["status"] == "ok")
        let entry = try #require(try lenient.journal("has_issues=true").first)
        let codes = entry["issues"]?.arrayValue?.compactMap { $0["code"]?.stringValue } ?? []
        #expect(codes.contains("fine_value_out_of_range"))
        #expect(codes.contains("timestamp_in_milliseconds"))

        let strict = try TestSKANMock { $0.strict = true }
        let answer = try JSONValue.parse(strict.get("/api/v2/conversion_value", bad))
        #expect(answer["status"] == "error")
        #expect(answer["reason"]?.stringValue == entry["issues"]?[0]?["message"]?.stringValue)
    }

    /// Issue 43.9: a device id of kilobytes is kept under its first 256 bytes, and said.
    @Test func aDeviceIdOver256BytesIsJournaledCutWithAFinding() throws {
        let mock = try TestSKANMock()
        let long = String(repeating: "L", count: 6_000)
        let answer = try mock.get(
            "/api/v1/conversion_value", [("a", "k"), ("idfv", long), ("n", "__SESSION__"), ("conversion_value", "0")])
        #expect(answer.status == 200)
        let cut = String(repeating: "L", count: 256)
        let entry = try #require(try mock.journal("device=" + cut).first)
        #expect(entry["device"]?.stringValue == cut)
        #expect(entry["issues"]?.arrayValue?.contains { $0["code"] == "device_id_too_long" } == true)
        #expect(try mock.admin("/__admin/devices/" + cut)["device"]?.stringValue == cut)
    }
}
