import SKANDomain
import Testing

/// The client flows of the seeds, replayed over a real socket, asserted through the admin API.
@Suite("Seed client flows")
struct SeedFlowTests {
    /// Seed 003, "Testing your implementation": three events against the testing endpoint give 1,
    /// then 2, then an empty answer the client cannot parse, so 2 stays the final value.
    @Test func skan3TestingFlowGivesOneTwoThenEmpty() throws {
        let mock = try TestSKANMock()
        var current: Int64 = 0  // "make sure the default conversion value is initialised to 0"
        var answers: [String] = []
        for event in ["tutorial_complete", "level_up", "purchase"] {
            let response = try mock.get(
                "/api/v1/conversion_value",
                [
                    ("a", "SDK-KEY"), ("i", "com.example.app"), ("app_v", "1.0"), ("n", event), ("p", "iOS"),
                    ("idfv", "SEED-003"), ("idfa", ""), ("conversion_value", String(current)),
                    ("total_revenue_by_currency", "{}"),
                    ("first_call_to_skadnetwork_timestamp", String(TestSKANMock.start - 60)),
                    ("last_call_to_skadnetwork_timestamp", String(TestSKANMock.start - 30))
                ])
            #expect(response.status == 200)
            #expect(response.header("Content-Type") == "application/json")
            answers.append(response.text)
            if let value = (try? JSONParser.parse(response.body))?["conversion_value"]?.intValue, value > current {
                current = value
            }
        }
        #expect(
            answers == ["{\"conversion_value\":1,\"status\":\"ok\"}", "{\"conversion_value\":2,\"status\":\"ok\"}", ""])
        #expect(current == 2)

        let entries = try mock.journal("endpoint=skan3&device=SEED-003")
        #expect(entries.count == 3)
        #expect(entries.map { $0["event"]?.stringValue } == ["tutorial_complete", "level_up", "purchase"])
        #expect(entries.map { $0["skan"]?["conversion_value"]?.intValue } == [0, 1, 2])
        #expect(entries.last?["response"]?["body"]?.stringValue == "")
        #expect(entries.allSatisfy { $0["issues"]?.arrayValue?.isEmpty == true })
    }

    /// Seed 001, "App Lifecycle Flow Example": register, session, a plain event, then a 15.53 KRW
    /// revenue event, each followed by the S2S call a back end makes with `getSkanDetails`.
    @Test func skan4AppLifecycleWithKRWRevenue() throws {
        let mock = try TestSKANMock()
        let app = SKANSnippetReplica(idfv: "SEED-001", mock: mock)
        let backEnd = CurlClient()
        func forward(_ path: String, event: String? = nil) throws -> String {
            var parameters = [("a", "API_KEY"), ("p", "iOS"), ("i", "com.example.app"), ("idfv", "SEED-001")]
            if let event { parameters.append(("n", event)) }
            return try mock.get(path, parameters + app.skanDetails(), using: backEnd).text
        }

        app.register()
        #expect(try forward("/api/v1/launch") == "{\"status\":\"ok\"}")

        mock.clock.advance(seconds: 60)
        try app.update()
        #expect(app.fine == 1 && app.coarse[0] == 0 && app.prevFine == 0)
        #expect(try forward("/api/v1/launch") == "{\"status\":\"ok\"}")

        mock.clock.advance(seconds: 60)
        try app.update("event_name")
        #expect(app.fine == 1)
        #expect(try forward("/api/v1/evt", event: "event_name") == "{\"status\":\"ok\"}")

        mock.clock.advance(seconds: 60)
        app.addRevenue(15.53, "KRW")
        try app.update("revenue_event_name")
        // 15.53 KRW at the model's 0.00072 USD/KRW is 0.0112 USD: the "any revenue" entry (fine 10, medium).
        #expect(app.fine == 10 && app.coarse[0] == 1 && app.prevFine == 1)
        #expect(app.lastResult?.error == nil)
        #expect(try forward("/api/v1/evt", event: "revenue_event_name") == "{\"status\":\"ok\"}")

        let conversions = try mock.journal("endpoint=skan4&device=SEED-001")
        #expect(conversions.map { $0["event"]?.stringValue } == ["__SESSION__", "event_name", "revenue_event_name"])
        #expect(conversions.allSatisfy { $0["window"]?.stringValue == "p0" })
        let revenue = try #require(conversions.last)
        #expect(revenue["params"]?["skan_total_revenue_by_currency"]?.stringValue == "{\"KRW\":15.53}")
        #expect(revenue["skan"]?["total_revenue"]?["KRW"]?.doubleValue == 15.53)
        #expect(
            revenue["response"]?["body"]?.stringValue
                == "{\"status\":\"ok\",\"conversion_value\":10,\"skan_updated_coarse_value\":1,\"skan_updated_lock_window_value\":false}"
        )

        #expect(try mock.admin("/__admin/requests/count?endpoint=launch&device=SEED-001")["count"] == 2)
        #expect(try mock.admin("/__admin/requests/count?endpoint=event&event=revenue_event_name")["count"] == 1)
        // A client that follows the snippet sends nothing the server has to complain about.
        #expect(try mock.admin("/__admin/requests/count?has_issues=true")["count"] == 0)
    }

    /// Across the windows: after 48 hours the client is in p1, where the fine value it sends is
    /// the one it kept from p0 and only the coarse value changes.
    @Test func skan4MovesIntoP1AndKeepsTheFineValue() throws {
        let mock = try TestSKANMock()
        let app = SKANSnippetReplica(idfv: "WINDOWS", mock: mock)
        app.register()
        try app.update()
        try app.update()
        #expect(app.fine == 2)
        mock.clock.advance(seconds: 3 * 24 * 3600)
        try app.update()
        #expect(app.coarse[1] == 0)
        #expect(app.fine == 2)
        let last = try #require(try mock.journal("device=WINDOWS").last)
        #expect(last["window"]?.stringValue == "p1")
        #expect(
            last["response"]?["body"]?.stringValue
                == "{\"status\":\"ok\",\"conversion_value\":2,\"skan_updated_coarse_value\":0,\"skan_updated_lock_window_value\":false}"
        )
        #expect(last["issues"]?.arrayValue?.isEmpty == true)

        mock.clock.advance(seconds: 40 * 24 * 3600)
        let over = try mock.get("/api/v2/conversion_value", app.query("__SESSION__"))
        #expect(over.text == "{\"status\":\"ok\"}")
        #expect(try mock.journal("device=WINDOWS&window=over").count == 1)
    }
}
