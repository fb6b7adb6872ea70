import Foundation
import SKANDomain
import SystemPOSIX
import Testing

@testable import SKANMock

/// What real client code showed, end to end: a retried request after faults gets the right step,
/// every request is journaled (wrong URLs, wrong methods, JSON bodies), route aliases, SDID-based S2S.
@Suite("Real clients over real sockets")
struct RealClientEndToEndTests {
    private func skan4(_ device: String, event: String = "__SESSION__") -> [(String, String)] {
        [
            ("a", "KEY"), ("v", "17.4"), ("i", "com.example.app"), ("app_v", "1.0"), ("n", event), ("p", "iOS"),
            ("idfv", device), ("skan_current_conversion_value", "0"),
            ("skan_first_call_to_skadnetwork_timestamp", String(TestSKANMock.start - 60))
        ]
    }

    /// SingularAdNetworkHelper retries after a non-200 answer: the retry must get the step the
    /// faulted requests would have had, and the device must show one session, not three.
    @Test func faultedRequestsLeaveNoTraceInTheDevicesState() throws {
        let mock = try TestSKANMock()
        let faults =
            #"{"faults":[{"endpoint":"skan4","type":"status","status":503,"times":2},{"endpoint":"skan4","type":"malformed","times":1},{"endpoint":"skan4","type":"drop","times":1}]}"#
        #expect(try mock.client.request("PUT", mock.url("/__admin/faults"), body: Array(faults.utf8)).status == 200)
        #expect(try mock.get("/api/v2/conversion_value", skan4("RETRY")).status == 503)
        #expect(try mock.get("/api/v2/conversion_value", skan4("RETRY")).status == 503)
        #expect(
            try mock.get("/api/v2/conversion_value", skan4("RETRY")).text == "{\"status\":\"ok\",\"conversion_value\":")
        #expect(throws: CurlClient.Failure.self) {
            try CurlClient().get(mock.url("/api/v2/conversion_value?" + TestSKANMock.query(skan4("RETRY"))))
        }
        let clean = try mock.get("/api/v2/conversion_value", skan4("RETRY"))
        #expect(
            clean.text
                == "{\"status\":\"ok\",\"conversion_value\":1,\"skan_updated_coarse_value\":0,\"skan_updated_lock_window_value\":false}"
        )
        let device = try mock.admin("/__admin/devices/RETRY")
        #expect(device["skan4"]?["p0"]?["events"]?["__SESSION__"]?.intValue == 1)
        let entries = try mock.journal("device=RETRY")
        #expect(entries.map { $0["fault"]?["type"]?.stringValue } == ["status", "status", "malformed", "drop", nil])
        #expect(entries.map { $0["response"]?["status"]?.intValue } == [503, 503, 200, 0, 200])
        // A delay delivers the answer, so it counts.
        let delay = #"{"faults":[{"endpoint":"skan4","type":"delay","delay_ms":10,"times":1}]}"#
        _ = try mock.client.request("PUT", mock.url("/__admin/faults"), body: Array(delay.utf8))
        #expect(try mock.get("/api/v2/conversion_value", skan4("RETRY")).text.contains("\"conversion_value\":2"))
    }

    /// A Python S2S launch sample (`requests.get(".../api/v1/launch", params=...)`) with the built-in
    /// model, whose `s2s` is off: two launches in p0 answered `{"status":"ok"}`, time travel to p1,
    /// a third launch forwarding the device's real value 0. The server must not hold the value it
    /// never sent (2) against it.
    @Test func s2sLaunchesWithoutAnswersLeaveNoP0ValueBehind() throws {
        let mock = try TestSKANMock()
        let launch: [(String, String)] = [
            ("a", "K"), ("p", "iOS"), ("i", "com.x"), ("idfv", "D-1"),
            ("skan_first_call_to_skadnetwork_timestamp", String(TestSKANMock.start)),
            ("skan_current_conversion_value", "0")
        ]
        #expect(try mock.get("/api/v1/launch", launch).text == #"{"status":"ok"}"#)
        #expect(try mock.get("/api/v1/launch", launch).text == #"{"status":"ok"}"#)
        let advance = try mock.client.request(
            "PUT", mock.url("/__admin/clock"), body: Array(#"{"advance_s":176400}"#.utf8),
            headers: ["Content-Type: application/json"])
        #expect(advance.status == 200)
        #expect(try mock.get("/api/v1/launch", launch).text == #"{"status":"ok"}"#)
        let entries = try mock.journal("device=D-1")
        #expect(entries.count == 3)
        #expect(entries.last?["window"] == "p1")
        #expect(entries.allSatisfy { ($0["issues"]?.arrayValue ?? []).isEmpty })
    }

    /// A server stopped during an injected delay journals that the answer was not sent, instead of
    /// the 200 the client never got (issue 21).
    @Test func aDelayCutShortByAStopIsJournaledAsNotSent() throws {
        let timers = WatchedTimer()
        let mock = try TestSKANMock(timer: timers.timer)
        let delay = #"{"faults":[{"endpoint":"skan4","type":"delay","delay_ms":30000}]}"#
        #expect(try mock.client.request("PUT", mock.url("/__admin/faults"), body: Array(delay.utf8)).status == 200)
        let connection = try RawConnection(port: mock.server.port)
        connection.send(
            "GET /api/v2/conversion_value?" + TestSKANMock.query(skan4("SLOW")) + " HTTP/1.1\r\nHost: x\r\n\r\n")
        // Held back, and not journaled yet.
        #expect(timers.waitForATimer())
        #expect(mock.server.answersHeldBack == 1)
        #expect(mock.server.journal.size == 0)
        mock.server.stop(gracePeriod: 0.2)
        let entry = try #require(mock.server.journal.query(JournalFilter(device: "SLOW")).entries.first?.json)
        #expect(entry["response"]?["status"] == 0)
        #expect(entry["not_sent"]?.stringValue?.hasPrefix("the server stopped during the 30000 ms delay") == true)
        #expect(entry["fault"]?["delay_ms"] == 30000)
        #expect(connection.readToEnd().text.isEmpty)
    }

    @Test func aWrongURLIsJournaledAsUnmatchedAndCounted() throws {
        let mock = try TestSKANMock()
        let response = try mock.get("/api/v2/conversion-value", skan4("WRONG-URL"))
        #expect(response.status == 404)
        let body = try JSONParser.parse(response.body)
        #expect(body["status"] == "error")
        #expect(body["reason"]?.stringValue?.contains("/api/v2/conversion_value") == true)
        let entries = try mock.journal("endpoint=unmatched")
        #expect(entries.count == 1)
        let entry = try #require(entries.first)
        #expect(entry["path"] == "/api/v2/conversion-value" && entry["method"] == "GET")
        #expect(entry["device"] == "WRONG-URL" && entry["params"]?["n"] == "__SESSION__")
        #expect(entry["issues"]?[0]?["code"] == "unknown_endpoint")
        #expect(entry["response"]?["status"] == 404)
        #expect(try mock.admin("/__admin/requests/count?has_issues=true")["count"] == 1)
        // The admin API's own calls (even a wrong one) stay out of the journal.
        #expect(try mock.client.get(mock.url("/__admin/nothing")).status == 404)
        #expect(try mock.admin("/__admin/requests/count")["count"] == 1)
        let metrics = try mock.client.get(mock.url("/__admin/metrics")).text
        #expect(metrics.contains("skan_mock_requests_total{endpoint=\"unmatched\",status=\"404\"} 1\n"))
    }

    @Test func aWrongMethodIsJournaledWithAllow() throws {
        let mock = try TestSKANMock()
        let response = try mock.client.request("DELETE", mock.url("/api/v1/evt?idfv=M&n=x"))
        #expect(response.status == 405)
        #expect(response.header("Allow") == "GET, HEAD, POST")
        let entry = try #require(try mock.journal("device=M").first)
        #expect(entry["endpoint"] == "event" && entry["method"] == "DELETE")
        #expect(entry["issues"]?[0]?["code"] == "method_not_allowed")
        #expect(
            try mock.client.get(mock.url("/__admin/metrics")).text.contains(
                "skan_mock_requests_total{endpoint=\"event\",status=\"405\"} 1\n"))
    }

    /// Issue 50.13: an S2S forwarder that posts JSON gets what Singular gives it. Singular reads
    /// the query string: with every required argument there, the answer is Singular's `ok`; with
    /// one missing, Singular's own `missing argument` reason (HTTP 200 both). The journal keeps
    /// the finding on the body either way.
    @Test func aJSONBodyIsAnsweredFromTheQueryAsSingularWouldWithAFindingOnTheBody() throws {
        let mock = try TestSKANMock()
        let json = #"{"a":"KEY","p":"iOS","i":"com.example.app","idfv":"JSON-1","n":"purchase"}"#
        let incomplete = try mock.client.request(
            "POST", mock.url("/api/v1/evt?idfv=JSON-1"), body: Array(json.utf8),
            headers: ["Content-Type: application/json"])
        #expect(incomplete.status == 200)
        #expect(incomplete.text == #"{"status":"error","reason":"missing argument: a"}"#)
        let entry = try #require(try mock.journal("device=JSON-1").first)
        let codes = entry["issues"]?.arrayValue?.compactMap { $0["code"]?.stringValue } ?? []
        #expect(codes.contains("unsupported_body") && codes.contains("missing_parameter"))
        let finding = entry["issues"]?.arrayValue?.first { $0["code"] == "unsupported_body" }
        #expect(finding?["message"]?.stringValue?.contains("query string") == true)
        #expect(entry["response"]?["status"] == 200)

        let complete = try mock.client.request(
            "POST", mock.url("/api/v1/evt?a=KEY&p=iOS&i=com.example.app&idfv=JSON-2&n=purchase"),
            body: Array(json.utf8), headers: ["Content-Type: application/json"])
        #expect(complete.status == 200)
        #expect(complete.text == #"{"status":"ok"}"#)
        let completeEntry = try #require(try mock.journal("device=JSON-2").first)
        #expect(completeEntry["issues"]?.arrayValue?.map { $0["code"]?.stringValue } == ["unsupported_body"])
        #expect(completeEntry["event"] == "purchase")
    }

    @Test func routeAliasesServeEndpointsAtTheAppsOwnPaths() throws {
        let mock = try TestSKANMock(configure: {
            $0.routes = [RouteAliasFixture.skan4, RouteAliasFixture.evt]
        })
        let answer = try mock.get("/v2/attribution/conversion-value", skan4("ALIAS"))
        #expect(answer.text.contains("\"conversion_value\":1"))
        let event = try mock.get(
            "/backend/evt", [("a", "K"), ("p", "iOS"), ("i", "app"), ("idfv", "ALIAS"), ("n", "x")])
        #expect(event.text == "{\"status\":\"ok\"}")
        let entries = try mock.journal("device=ALIAS")
        #expect(entries.map { $0["path"]?.stringValue } == ["/v2/attribution/conversion-value", "/backend/evt"])
        #expect(entries.map { $0["endpoint"]?.stringValue } == ["skan4", "event"])
        // Singular's own paths still answer.
        #expect(try mock.get("/api/v2/conversion_value", skan4("ALIAS-2")).status == 200)
    }

    /// Ecosia's iOS Singular client as it talks to Ecosia's back end: `/v2/attribution/conversion-value`,
    /// no `a` and no `idfv` (its back end adds the SDK key before calling Singular), the device as
    /// `sing`. The alias adds `a` as that back end does; under `--strict` nothing is refused.
    @Test func anAliasAddsWhatTheAppsBackEndAdds() throws {
        let aliases = [
            try RouteAlias(parsing: "/v2/attribution/conversion-value=skan4?a=ECOSIA-KEY"),
            try RouteAlias(parsing: "/backend/launch=launch?a=ECOSIA-KEY&p=iOS")
        ]
        let mock = try TestSKANMock(configure: {
            $0.strict = true
            $0.routes = aliases
        })
        let ecosia: [(String, String)] = [
            ("sing", "ECO-1"), ("i", "com.ecosia.ecosiaapp"), ("p", "iOS"), ("n", "__SESSION__"),
            ("skan_current_conversion_value", "0"),
            ("skan_first_call_to_skadnetwork_timestamp", String(TestSKANMock.start - 60))
        ]
        let answer = try mock.get("/v2/attribution/conversion-value", ecosia)
        #expect(
            answer.text
                == #"{"status":"ok","conversion_value":1,"skan_updated_coarse_value":0,"skan_updated_lock_window_value":false}"#
        )
        let launch = try mock.get("/backend/launch", [("i", "com.ecosia.ecosiaapp"), ("idfv", "ECO-1")])
        #expect(launch.text == #"{"status":"ok"}"#)
        #expect(try mock.admin("/__admin/requests/count?has_issues=true")["count"] == 0)
        let entries = try mock.journal("device=ECO-1")
        #expect(entries.count == 2)
        // The journal keeps the parameters as sent apart from those the alias added.
        #expect(entries.first?["params"]?["a"] == nil)
        #expect(entries.first?["route_params"] == .object([JSONMember("a", "ECOSIA-KEY")]))
        #expect(entries.last?["route_params"] == .object([JSONMember("a", "ECOSIA-KEY"), JSONMember("p", "iOS")]))

        // A client that sends its own key wins, and nothing is added.
        let own = try mock.get("/v2/attribution/conversion-value", ecosia + [("a", "CLIENT-KEY")])
        #expect(own.status == 200)
        let ownEntry = try #require(try mock.journal("device=ECO-1").last)
        #expect(ownEntry["params"]?["a"] == "CLIENT-KEY")
        #expect(ownEntry["route_params"] == nil)
    }

    /// Ecosia's back end sends the device id as `sing` on every launch and event: refused with
    /// `missing argument: idfv` (32 of 32) while an alias could only add fixed values. An alias
    /// copies it (`idfv={sing}`), the journal shows the copy, and without the copy the refusal
    /// says how to make one.
    @Test func anAliasCopiesTheDeviceIdTheBackEndNamesItsOwnWay() throws {
        let routes = [
            try RouteAlias(parsing: "/backend/launch=launch?a=ECOSIA-KEY&p=iOS&idfv={sing}"),
            try RouteAlias(parsing: "/backend/plain=launch?a=ECOSIA-KEY&p=iOS")
        ]
        let mock = try TestSKANMock(configure: { $0.routes = routes })
        let launch = try mock.get("/backend/launch", [("i", "com.ecosia.ecosiaapp"), ("sing", "ECO-SING")])
        #expect(launch.text == #"{"status":"ok"}"#)
        let entry = try #require(try mock.journal("device=ECO-SING").first)
        #expect(entry["issues"]?.arrayValue?.isEmpty == true)
        #expect(
            entry["route_params"]
                == JSONValue.object([
                    JSONMember("a", "ECOSIA-KEY"), JSONMember("p", "iOS"), JSONMember("idfv", "ECO-SING")
                ]))
        // No `sing` to copy: nothing is added, and Singular's refusal stands.
        let none = try mock.get("/backend/launch", [("i", "com.ecosia.ecosiaapp")])
        #expect(none.text == #"{"status":"error","reason":"missing argument: idfv"}"#)
        // Without a copy, the finding says how to make one.
        _ = try mock.get("/backend/plain", [("i", "com.ecosia.ecosiaapp"), ("sing", "ECO-2")])
        let refused = try #require(try mock.journal("has_issues=true").last)
        let message = refused["issues"]?[0]?["message"]?.stringValue ?? ""
        #expect(message.hasPrefix("missing argument: idfv; /backend/plain is a --route alias"), "\(message)")
        #expect(message.contains("idfv={sing}"))
    }

    /// Without the added key, the finding says the real cause: the alias, not the snippet.
    @Test func theMissingKeyMessageNamesTheRealCause() throws {
        let mock = try TestSKANMock(configure: { $0.routes = [RouteAliasFixture.skan4, RouteAliasFixture.evt] })
        _ = try mock.get("/v2/attribution/conversion-value", [("sing", "NO-KEY"), ("n", "__SESSION__")])
        _ = try mock.get("/api/v2/conversion_value", [("idfv", "NO-KEY"), ("n", "__SESSION__")])
        _ = try mock.get("/api/v1/launch", [("p", "iOS"), ("i", "x"), ("idfv", "NO-KEY")])
        let messages = try mock.journal("device=NO-KEY").map { entry in
            entry["issues"]?.arrayValue?.first { $0["param"] == "a" }?["message"]?.stringValue ?? ""
        }
        #expect(messages.count == 3)
        #expect(
            messages[0].contains("--route alias of /api/v2/conversion_value")
                && messages[0].contains("--route '/v2/attribution/conversion-value=skan4?a=YOUR_SDK_KEY'"))
        #expect(messages[1].contains("the snippet's @\"\" is a placeholder"))
        #expect(messages[2].hasPrefix("missing argument: a (the SDK key); a server-to-server request must carry it"))
    }

    /// Singular's Segment destination function and the Python S2S sample send Android launches as
    /// forms and queries with `aifa`, `asid`, `andi` and `install_ref`: journaled under the device,
    /// and with a finding when no id of any kind came.
    @Test func androidLaunchesAreKeyedByTheirDeviceIds() throws {
        let mock = try TestSKANMock()
        let form =
            "a=KEY&p=Android&i=com.example.app&ve=14&aifa=8ecd7512-2864-440c-93f3-a3cabe62525b&asid=ASID-9&andi=f5f6e6a1&install_ref=utm_source%3Dgoogle-play"
        let posted = try mock.client.request(
            "POST", mock.url("/api/v1/launch"), body: Array(form.utf8),
            headers: ["Content-Type: application/x-www-form-urlencoded"])
        #expect(posted.text == #"{"status":"ok"}"#)
        let entry = try #require(try mock.journal("device=8ecd7512-2864-440c-93f3-a3cabe62525b").first)
        #expect(entry["issues"]?.arrayValue?.isEmpty == true)
        let none = try mock.get("/api/v1/launch", [("a", "KEY"), ("p", "Android"), ("i", "com.example.app")])
        #expect(none.status == 200 && none.text == #"{"status":"error","reason":"no device ID supplied"}"#)
        let anonymous = try #require(try mock.journal("has_issues=true").first)
        #expect(anonymous["device"] == .null)
        #expect(anonymous["issues"]?[0]?["param"] == "aifa")
    }

    @Test func sdidBasedS2SEndpoints() throws {
        let mock = try TestSKANMock()
        let sdid = "49c2d3a6-326e-4ec5-a16b-0a47e34ed953"
        let identity = [("a", "KEY"), ("p", "iOS"), ("i", "com.example.app"), ("sdid", sdid)]
        #expect(try mock.get("/api/v2/launch", identity).text == "{\"status\":\"ok\"}")
        #expect(
            try mock.get("/api/v2/evt", identity).text == "{\"status\":\"error\",\"reason\":\"missing argument: n\"}")
        #expect(try mock.get("/api/v2/evt", identity + [("n", "purchase")]).text == "{\"status\":\"ok\"}")
        #expect(
            try mock.get("/api/v2/evt", [("a", "KEY"), ("p", "iOS"), ("i", "x"), ("idfv", "V"), ("n", "e")]).text
                == "{\"status\":\"error\",\"reason\":\"missing argument: sdid\"}")
        let entries = try mock.journal("device=\(sdid)")
        #expect(entries.map { $0["endpoint"]?.stringValue } == ["launch2", "event2", "event2"])
        #expect(try mock.admin("/__admin/requests/count?endpoint=event2")["count"] == 3)
        // Singular's path name works as well as the journal's, in filters and fault rules.
        #expect(try mock.admin("/__admin/requests/count?endpoint=evt2")["count"] == 3)
        let faults = #"{"faults":[{"endpoint":"evt2","type":"status","status":503,"times":1}]}"#
        #expect(try mock.client.request("PUT", mock.url("/__admin/faults"), body: Array(faults.utf8)).status == 200)
        #expect(try mock.get("/api/v2/evt", identity + [("n", "purchase")]).status == 503)
    }
}

enum RouteAliasFixture {
    static let skan4 = RouteAlias(path: "/v2/attribution/conversion-value", endpoint: .skan4)
    static let evt = RouteAlias(path: "/backend/evt", endpoint: .event)
}
