import Foundation
import SKANDomain
import Testing

/// `skan-mock check CAPTURE.har` through the real executable: a captured request gets the finding
/// the same request gets live; a capture mitmproxy wrote (`Tests/Fixtures/HAR`) reads; text,
/// `--json`, `--junit` and `--fail-on-findings`; and bad captures, each named in one line.
@Suite("skan-mock check: HAR captures")
struct CheckCommandTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/HAR")

    private func directory() throws -> String {
        let dir = NSTemporaryDirectory() + "skan-check-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    /// A HAR file of `(url, startedDateTime, status, answer)` entries.
    private func har(_ entries: [(url: String, time: String, status: Int, body: String)]) -> String {
        let items = entries.map { e in
            #"{"startedDateTime":"\#(e.time)","time":2.5,"request":{"method":"GET","url":\#(JSONValue.string(e.url).description),"httpVersion":"HTTP/1.1","headers":[],"queryString":[],"cookies":[],"headersSize":-1,"bodySize":0},"response":{"status":\#(e.status),"statusText":"","httpVersion":"HTTP/1.1","headers":[],"cookies":[],"content":{"size":\#(e.body.utf8.count),"mimeType":"application/json","text":\#(JSONValue.string(e.body).description)},"redirectURL":"","headersSize":-1,"bodySize":-1},"cache":{},"timings":{"send":0,"wait":2,"receive":0}}"#
        }
        return #"{"log":{"version":"1.2","creator":{"name":"test","version":"1"},"entries":["#
            + items.joined(separator: ",\n") + "]}}"
    }

    /// The same request sent live and read from a capture (with the live answer, at the live
    /// time): the same findings, word for word, and the same values.
    @Test func aCapturedRequestGetsTheFindingALiveOneGets() throws {
        let mock = try TestSKANMock()
        let parameters: [(String, String)] = [
            ("a", "KEY"), ("v", "17.4"), ("i", "com.example.app"), ("p", "iOS"), ("idfv", "LIVE-1"),
            ("n", "__SESSION__"), ("skan_current_conversion_value", "0"), ("p0_coarse", "7"),
            ("skan_first_call_to_skadnetwork_timestamp", String(TestSKANMock.start))
        ]
        let response = try mock.get("/api/v2/conversion_value", parameters)
        let live = try #require(try mock.journal().first)
        let url = "https://sdk-api-v1.singular.net/api/v2/conversion_value?" + TestSKANMock.query(parameters)
        let dir = try directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let capture = dir + "/capture.har"
        try har([
            (
                url, try #require(live["time"]?.stringValue), response.status,
                String(decoding: response.body, as: UTF8.self)
            )
        ]).write(toFile: capture, atomically: true, encoding: .utf8)

        let run = try SKANMockExecutable.run(["check", capture, "--json"])
        #expect(run.status == 0)
        let result = try JSONParser.parse(run.output)
        #expect(result["singular"] == 1)
        let device = try #require(result["report"]?["devices"]?[0])
        #expect(device["device"] == "LIVE-1")
        let findings = device["findings"]?.arrayValue ?? []
        let liveIssues = live["issues"]?.arrayValue ?? []
        #expect(findings.count == liveIssues.count && !findings.isEmpty)
        for (found, issue) in zip(findings, liveIssues) {
            #expect(found["code"] == issue["code"])
            #expect(found["message"] == issue["message"])
            #expect(found["param"] == issue["param"])
        }
        let liveReport = try mock.admin("/__admin/report")
        #expect(device["values"] == liveReport["devices"]?[0]?["values"])
    }

    /// mitmproxy 11's HAR export of a session through a reverse proxy in front of skan-mock
    /// (how it was made: Tests/Fixtures/HAR/README.md): the wrong `p0_coarse` is found, the admin
    /// calls are counted as other traffic, and the JUnit file fails that device.
    @Test func aCaptureMitmproxyWrote() throws {
        let capture = Self.fixtures.appendingPathComponent("mitmproxy-skan4-wrong-coarse.har").path
        let text = try SKANMockExecutable.run(["check", capture])
        #expect(text.status == 0)
        #expect(text.output.contains("capture: 5 entries read, 3 to Singular's endpoints, 2 other"))
        #expect(
            text.output.contains(
                "device QA-HAR-1: 3 requests, windows p0, values 1, findings: coarse_value_out_of_range x1"))
        #expect(text.output.contains("#2 GET /api/v2/conversion_value: p0_coarse: coarse_value_out_of_range"))
        #expect(text.output.contains("p0 pending"))
        #expect(text.error.isEmpty)

        let dir = try directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let junit = dir + "/junit.xml"
        let failing = try SKANMockExecutable.run(["check", capture, "--junit", junit, "--fail-on-findings"])
        #expect(failing.status == 1)
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains(#"<testcase classname="skan-mock.check.devices" name="QA-HAR-1">"#))
        #expect(xml.contains(#"<failure type="coarse_value_out_of_range""#))
    }

    /// A SKAN 4 device's session over its three windows (p0 at the first call and an hour later, p1
    /// on day 3, p2 on days 10 and 20), sent live, then written as a proxy captures it (Singular's
    /// production host, the live answers at the live times): `check` predicts the postbacks the live
    /// server predicts for that device (`/__admin/devices/ID/postbacks`, and `/__admin/report`),
    /// member for member, at every tier.
    @Test func aThreeWindowSessionPredictsTheSamePostbacksAsLive() throws {
        let mock = try TestSKANMock()
        let first = String(TestSKANMock.start)
        func call(_ event: String, _ current: Int, _ extra: [(String, String)] = []) -> [(String, String)] {
            [
                ("a", "KEY"), ("v", "17.4"), ("i", "com.example.app"), ("p", "iOS"), ("idfv", "W3-1"), ("n", event),
                ("skan_current_conversion_value", String(current)), ("prev_fine_value", String(current)),
                ("skan_first_call_to_skadnetwork_timestamp", first)
            ] + extra
        }
        let session: [(advance: Int64, parameters: [(String, String)])] = [
            (0, call("__SESSION__", 0)),
            (3600, call("purchase", 1, [("skan_total_revenue_by_currency", #"{"USD":4.99}"#)])),
            (3 * 86_400, call("__SESSION__", 10, [("p0_coarse", "1")])),
            (3600, call("purchase", 10, [("skan_total_revenue_by_currency", #"{"USD":19.98}"#)])),
            (6 * 86_400, call("__SESSION__", 10, [("p1_coarse", "2")])),
            (10 * 86_400, call("level_up", 10, [("p1_coarse", "2")]))
        ]
        var exchanges: [(url: String, status: Int, body: String)] = []
        for step in session {
            mock.clock.advance(seconds: step.advance)
            let response = try mock.get("/api/v2/conversion_value", step.parameters)
            exchanges.append(
                (
                    "https://sdk-api-v1.singular.net/api/v2/conversion_value?" + TestSKANMock.query(step.parameters),
                    response.status, String(decoding: response.body, as: UTF8.self)
                ))
        }
        let times = try mock.journal().map { try #require($0["time"]?.stringValue) }
        #expect(times.count == session.count)
        let dir = try directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let capture = dir + "/three-windows.har"
        try har(zip(exchanges, times).map { ($0.url, $1, $0.status, $0.body) }).write(
            toFile: capture, atomically: true, encoding: .utf8)

        let model = CheckCommandTests.fixtures.deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("config/singular-testing.json").path
        let run = try SKANMockExecutable.run(["check", capture, "--json", "--model", model])
        #expect(run.status == 0, "\(run.error)")
        let result = try JSONParser.parse(run.output)
        let device = try #require(result["report"]?["devices"]?[0])
        #expect(device["windows"] == ["p0", "p1", "p2"])
        // Singular's answers are the model's own: the comparison with it finds no difference.
        #expect(result["compared"]?["compared"] == 6)
        #expect(result["compared"]?["matched"] == 6)
        // Signed or not, the same fields are signed; only why they are not differs (the live server
        // says its key needs an HTTPS listener, check has no key at all).
        let predicted = Self.withoutSignatureReason(try #require(device["postbacks"]))
        let live = Self.withoutSignatureReason(try mock.admin("/__admin/devices/W3-1/postbacks"))
        #expect(predicted == live)
        let liveReport = try mock.admin("/__admin/report")
        #expect(predicted == liveReport["devices"]?[0]?["postbacks"].map(Self.withoutSignatureReason))
        #expect(device["values"] == liveReport["devices"]?[0]?["values"])
        // Each window has a value to send, at the highest tier.
        let tier3 = predicted["skan4"]?.arrayValue?.last?["postbacks"]?.arrayValue ?? []
        #expect(tier3.map { $0["window"]?.stringValue ?? "" } == ["p0", "p1", "p2"])
        #expect(tier3.map { $0["fine"]?.isNull == false || $0["coarse"]?.isNull == false } == [true, true, true])
    }

    /// `value` with each `signature`'s `reason` left out.
    static func withoutSignatureReason(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members):
            return .object(
                members.map { member in
                    guard member.key == "signature", case .object(let signature) = member.value else {
                        return JSONMember(member.key, withoutSignatureReason(member.value))
                    }
                    return JSONMember(member.key, .object(signature.filter { $0.key != "reason" }))
                })
        case .array(let items): return .array(items.map(withoutSignatureReason))
        default: return value
        }
    }

    /// Headless Chromium's network log saved as HAR through the DevTools protocol (how it was made:
    /// Tests/Fixtures/HAR/README.md): the findings the live server journaled, the page's own
    /// document, stylesheet and icon counted as other traffic, the POST's form body read.
    @Test func aCaptureChromiumWrote() throws {
        let capture = Self.fixtures.appendingPathComponent("chromium-devtools-skan.har").path
        let run = try SKANMockExecutable.run(["check", capture, "--json"])
        #expect(run.status == 0)
        #expect(run.error.isEmpty)
        let result = try JSONParser.parse(run.output)
        #expect(result["entries"] == 7)
        #expect(result["singular"] == 4)
        #expect(result["others"] == 3)
        #expect(result["problems"] == [])
        let devices = result["report"]?["devices"]?.arrayValue ?? []
        #expect(devices.map { $0["device"]?.stringValue ?? "" } == ["CHROME-1", "CHROME-2"])
        #expect(devices.first?["requests"] == 3)
        #expect(devices.first?["windows"] == ["p1"])
        let findings = devices.map { device in
            (device["findings"]?.arrayValue ?? []).map {
                "\($0["param"]?.stringValue ?? ""): \($0["code"]?.stringValue ?? "")"
            }
        }
        #expect(findings == [["p1_coarse: coarse_value_out_of_range"], ["conversion_value: missing_parameter"]])
        let failing = try SKANMockExecutable.run(["check", capture, "--fail-on-findings"])
        #expect(failing.status == 1)
    }

    @Test func badCapturesAreNamedAndTheRestIsRead() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let good =
            #"{"startedDateTime":"2026-11-28T13:00:00Z","request":{"method":"GET","url":"https://h/api/v1/conversion_value?a=K&i=x&p=iOS&idfv=B1&n=__SESSION__&conversion_value=0"},"response":{"status":200,"content":{"text":"eyJjb252ZXJzaW9uX3ZhbHVlIjoxLCJzdGF0dXMiOiJvayJ9","encoding":"base64"}}}"#
        let broken =
            #"{"startedDateTime":"2026-11-28T13:00:01Z","request":{"method":"GET","url":"https://h/api/v1/evt"}}"#
        let cut = dir + "/cut.har"
        let cutText = #"{"log":{"entries":["# + good + "," + broken + #",{"startedDateTime":"2026-11-"#
        try cutText.write(toFile: cut, atomically: true, encoding: .utf8)
        let run = try SKANMockExecutable.run(["check", cut, "--fail-on-findings"])
        #expect(run.status == 1)
        // The base64 answer was decoded and adopted.
        #expect(run.output.contains("device B1: 1 request, windows -, values 1, findings: none"))
        let errors = run.error.split(separator: "\n").map(String.init)
        #expect(
            errors == [
                "skan-mock check: \(cut): entry 2 (https://h/api/v1/evt): $.response: missing",
                "skan-mock check: \(cut): entry 3: cut short where the file ends",
                "skan-mock check: \(cut): the file ends before its JSON does (after \(cutText.utf8.count) bytes): a capture cut short, an export that did not finish"
            ])

        let notJSON = dir + "/page.har"
        try "<html>".write(toFile: notJSON, atomically: true, encoding: .utf8)
        let refused = try SKANMockExecutable.run(["check", notJSON])
        #expect(refused.status == 2)
        #expect(
            refused.error
                == "skan-mock check: \(notJSON): not JSON: it starts with '<' where a HAR file starts with {\n")
        #expect(refused.output.isEmpty)

        let missing = try SKANMockExecutable.run(["check", dir + "/nope.har"])
        #expect(missing.status == 2)
        #expect(missing.error.contains("cannot read capture \(dir)/nope.har"))

        let badRoute = try SKANMockExecutable.run(["check", cut, "--route", "nonsense"])
        #expect(badRoute.status == 64)
    }
}

/// The journal out as HAR (`GET /__admin/requests.har`, under a tenant too, and
/// `skan-mock report LOG --har OUT`), read back by `skan-mock check` with the same findings.
@Suite("The journal as HAR, read back by check")
struct JournalHARTests {
    private func skan4(_ device: String, coarse: String) -> [(String, String)] {
        [
            ("a", "KEY"), ("v", "17.4"), ("i", "com.example.app"), ("p", "iOS"), ("idfv", device),
            ("n", "__SESSION__"), ("skan_current_conversion_value", "0"), ("p0_coarse", coarse),
            ("skan_first_call_to_skadnetwork_timestamp", String(TestSKANMock.start))
        ]
    }

    /// `(code, message)` of every finding of `check --json`'s report, in order.
    private func findings(checking path: String) throws -> [String] {
        let run = try SKANMockExecutable.run(["check", path, "--json"])
        #expect(run.status == 0, "\(run.error)")
        let report = try JSONParser.parse(run.output)
        #expect(report["problems"] == [])
        return (report["report"]?["devices"]?.arrayValue ?? []).flatMap { $0["findings"]?.arrayValue ?? [] }.map {
            "\($0["code"]?.stringValue ?? ""): \($0["message"]?.stringValue ?? "")"
        }
    }

    @Test func exportedAndReadBack() throws {
        let mock = try TestSKANMock()
        _ = try mock.get("/api/v2/conversion_value", skan4("H1", coarse: "0"))
        mock.clock.advance(seconds: 60)
        _ = try mock.get("/api/v2/conversion_value", skan4("H1", coarse: "9"))
        _ = try mock.get("/t/qa-har/api/v2/conversion_value", skan4("H2", coarse: "5"))
        _ = try mock.client.get(mock.url("/api/v1/conversion_value?a=KEY&i=x&p=iOS&n=__SESSION__&conversion_value=99"))
        let live = try mock.journal().flatMap { $0["issues"]?.arrayValue ?? [] }.map {
            "\($0["code"]?.stringValue ?? ""): \($0["message"]?.stringValue ?? "")"
        }
        #expect(live.count >= 3)

        let dir = NSTemporaryDirectory() + "skan-har-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }

        let response = try mock.client.get(mock.url("/__admin/requests.har"))
        #expect(response.status == 200)
        #expect(response.headers.contains { $0.name.lowercased() == "content-disposition" })
        let served = dir + "/served.har"
        try Data(response.body).write(to: URL(fileURLWithPath: served))
        let document = try JSONParser.parse(response.body)
        #expect(document["log"]?["version"] == "1.2")
        #expect(document["log"]?["entries"]?[1]?["comment"]?.stringValue?.contains("coarse_value_out_of_range") == true)
        #expect(try findings(checking: served) == live)

        // The same filters as /__admin/requests; a wrong one is refused alike.
        let filtered = try JSONParser.parse(try mock.client.get(mock.url("/__admin/requests.har?has_issues=true")).body)
        let withIssues = try mock.journal("has_issues=true").count
        #expect(filtered["log"]?["entries"]?.arrayValue?.count == withIssues)
        #expect(try mock.client.get(mock.url("/__admin/requests.har?devcie=H1")).status == 400)

        // Under a tenant: its own entries, their URLs under /t/NAME, read back by check.
        let tenant = try mock.client.get(mock.url("/t/qa-har/__admin/requests.har"))
        let tenantDocument = try JSONParser.parse(tenant.body)
        let url = tenantDocument["log"]?["entries"]?[0]?["request"]?["url"]?.stringValue ?? ""
        #expect(url.contains("/t/qa-har/api/v2/conversion_value?"))
        let tenantFile = dir + "/tenant.har"
        try Data(tenant.body).write(to: URL(fileURLWithPath: tenantFile))
        #expect(try findings(checking: tenantFile).map { $0.prefix(25) } == ["coarse_value_out_of_range"])

        // From the journal file: the same entries, the same findings.
        let journal = dir + "/journal.jsonl"
        try (try mock.logLines().joined(separator: "\n") + "\n").write(
            toFile: journal, atomically: true, encoding: .utf8)
        let written = dir + "/written.har"
        let report = try SKANMockExecutable.run(["report", journal, "--har", written])
        #expect(report.status == 0)
        #expect(try findings(checking: written) == live)
        let itself = try SKANMockExecutable.run(["report", journal, "--har", journal])
        #expect(itself.status == 2)
    }
}

/// `skan-mock record CAPTURE.har --out replay.json`: Singular's answers in a capture of a release
/// build, frozen and then served by `--replay` to the same requests.
@Suite("skan-mock record from a HAR capture")
struct RecordCaptureTests {
    @Test func aCaptureIsRecordedAndReplayed() throws {
        let dir = NSTemporaryDirectory() + "skan-record-har-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let parameters: [(String, String)] = [
            ("a", "KEY"), ("v", "17.4"), ("i", "com.example.app"), ("p", "iOS"), ("idfv", "REC-1"),
            ("n", "__SESSION__"), ("skan_current_conversion_value", "0"),
            ("skan_first_call_to_skadnetwork_timestamp", String(TestSKANMock.start))
        ]
        let url = "https://sdk-api-v1.singular.net/api/v2/conversion_value?" + TestSKANMock.query(parameters)
        // Production answered 5 where the bundled model answers 1.
        let answer =
            #"{"status":"ok","conversion_value":5,"skan_updated_coarse_value":1,"skan_updated_lock_window_value":false}"#
        let time = RFC3339.format(milliseconds: (TestSKANMock.start + 60) * 1000)
        let capture = dir + "/session.har"
        try
            (#"{"log":{"version":"1.2","creator":{"name":"t","version":"1"},"entries":[{"startedDateTime":"\#(time)","time":1,"request":{"method":"GET","url":\#(JSONValue.string(url).description)},"response":{"status":200,"content":{"text":\#(JSONValue.string(answer).description)}}},{"startedDateTime":"\#(time)","request":{"method":"GET","url":"https://cdn.example.com/a.png"},"response":{"status":200}}]}}"#)
            .write(toFile: capture, atomically: true, encoding: .utf8)
        let replay = dir + "/replay.json"
        let run = try SKANMockExecutable.run(["record", capture, "--out", replay])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output == "1 answer recorded for 1 device, written to \(replay)\n")

        let mock = try TestSKANMock(configure: { $0.replayPath = replay })
        mock.clock.advance(seconds: 60)
        let response = try mock.get("/api/v2/conversion_value", parameters)
        #expect(response.text == answer)
        #expect(try mock.journal().first?["replayed"] == true)

        let nothing = dir + "/none.har"
        try #"{"log":{"entries":[]}}"#.write(toFile: nothing, atomically: true, encoding: .utf8)
        let empty = try SKANMockExecutable.run(["record", nothing, "--out", dir + "/none.json"])
        #expect(empty.status == 2)
        #expect(empty.error.contains("no request to Singular's endpoints with an answer"))
    }
}
