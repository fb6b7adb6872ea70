import Foundation
import SKANDomain
import SKANMock
import Testing

@Suite("Journal reports: GET /__admin/report and skan-mock report")
struct ReportTests {
    private func skan4(_ device: String, coarse: String = "0") -> [(String, String)] {
        [
            ("a", "k"), ("v", "17.0"), ("i", "com.x"), ("p", "iOS"), ("idfv", device), ("n", "__SESSION__"),
            ("skan_current_conversion_value", "0"), ("p0_coarse", coarse),
            ("skan_first_call_to_skadnetwork_timestamp", String(TestSKANMock.start))
        ]
    }

    @Test func adminReportSummarisesTheJournal() throws {
        let mock = try TestSKANMock()
        _ = try mock.get("/api/v2/conversion_value", skan4("R1"))
        _ = try mock.get("/api/v2/conversion_value", skan4("R1", coarse: "9"))
        let report = try mock.admin("/__admin/report")
        #expect(report["requests"] == 2)
        #expect(report["findings"] == 1)
        #expect(report["devices"]?[0]?["device"] == "R1")
        #expect(report["devices"]?[0]?["windows"] == ["p0"])
        #expect(report["devices"]?[0]?["findings_by_code"] == ["coarse_value_out_of_range": 1])
        #expect(report["devices"]?[0]?["findings"]?[0]?["id"] == 2)
        #expect(try mock.admin("/__admin/report?device=nobody")["requests"] == 0)
        #expect(try mock.client.get(mock.url("/__admin/report?devcie=R1")).status == 400)
    }

    @Test func commandLineWritesJUnitAndFailsOnFindings() throws {
        let mock = try TestSKANMock()
        _ = try mock.get("/api/v2/conversion_value", skan4("C1", coarse: "9"))
        let lines = try mock.logLines()
        let dir = NSTemporaryDirectory() + "skan-report-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let journal = dir + "/journal.jsonl"
        try (lines.joined(separator: "\n") + "\n{broken\n").write(toFile: journal, atomically: true, encoding: .utf8)

        let plain = try SKANMockExecutable.run(["report", journal])
        #expect(plain.status == 0)
        #expect(plain.output.contains("device C1: 1 request, windows p0"))
        #expect(plain.output.contains("line 2: not JSON"))

        let junit = dir + "/junit.xml"
        let failing = try SKANMockExecutable.run(["report", journal, "--junit", junit, "--fail-on-findings"])
        #expect(failing.status == 1)
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains(#"<testcase classname="skan-mock.devices" name="C1">"#))
        #expect(xml.contains(#"<failure type="coarse_value_out_of_range""#))

        let missing = try SKANMockExecutable.run(["report", dir + "/nope.jsonl"])
        #expect(missing.status == 2)
        #expect(missing.error.contains("nope.jsonl"))
    }

    /// A device driven through p0 with a lock and on into p1: the report (admin route and command
    /// line) says what Apple would send for it, JUnit has a postbacks testcase per device, and a
    /// value the given model never gives fails it.
    @Test func postbacksInTheReportAndJUnit() throws {
        let dir = NSTemporaryDirectory() + "skan-postbacks-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let model = dir + "/lock.json"
        try
            #"{"name":"lock","skan4":{"p0":{"entries":[{"fine":60,"coarse":"high","lock":true,"when":{"event":{"name":"buy"}}},{"fine":7,"coarse":"low","when":{"event":{"name":"__SESSION__"}}}]},"p1":{"entries":[{"coarse":"medium"}]}}}"#
            .write(toFile: model, atomically: true, encoding: .utf8)
        let other = dir + "/other.json"
        try #"{"name":"other","skan4":{"p0":{"entries":[{"fine":1,"coarse":"low"}]}}}"#.write(
            toFile: other, atomically: true, encoding: .utf8)
        let mock = try TestSKANMock(configure: { $0.modelPath = model })
        func send(_ event: String) throws {
            var parameters = skan4("PB")
            parameters[5] = ("n", event)
            #expect(try mock.get("/api/v2/conversion_value", parameters).status == 200)
        }
        mock.clock.advance(seconds: 3600)
        try send("buy")
        mock.clock.advance(seconds: 3600)
        try send("__SESSION__")  // after the lock: iOS ignores it, so the postback keeps 60
        mock.clock.advance(seconds: 3 * 86_400)
        try send("__SESSION__")

        let live = try mock.admin("/__admin/report")
        let p0 = try #require(live["devices"]?[0]?["postbacks"]?["skan4"]?[3]?["postbacks"]?[0])
        #expect(p0["status"] == "locked" && p0["fine"] == 60)
        #expect(live["devices"]?[0]?["postbacks"]?["skan4"]?[3]?["postbacks"]?[1]?["status"] == "pending")

        let journal = dir + "/journal.jsonl"
        try (try mock.logLines().joined(separator: "\n") + "\n").write(
            toFile: journal, atomically: true, encoding: .utf8)
        let junit = dir + "/junit.xml"
        let plain = try SKANMockExecutable.run(["report", journal, "--model", model, "--junit", junit])
        #expect(plain.status == 0)
        #expect(plain.output.contains("  postbacks as of 2026-09-18T14:00:00.000Z:"))
        #expect(
            plain.output.contains(
                "    p0 locked, sent between 2026-09-16T13:00:00.000Z and 2026-09-17T13:00:00.000Z: tier 0 no value, tier 1 coarse high, tier 2 fine 60, tier 3 fine 60"
            ))
        #expect(
            plain.output.contains(
                "    p1 pending (window open until 2026-09-22T12:00:00.000Z): tier 0 not sent, tier 1 coarse medium"))
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(
            xml.contains(#"<testcase classname="skan-mock.postbacks" name="PB">"#)
                && !xml.contains("value_not_in_model"))

        let strict = try SKANMockExecutable.run([
            "report", journal, "--model", other, "--fail-on-findings", "--junit", junit
        ])
        #expect(strict.status == 1)
        #expect(strict.output.contains("value_not_in_model"))
        #expect(try String(contentsOfFile: junit, encoding: .utf8).contains(#"<failure type="value_not_in_model""#))
    }

    /// `compare --fail-on-differences` on a journal with nothing to compare fails and says why
    /// (issue 30.17: it passed CI on a journal written without --upstream, or an empty one).
    @Test func compareFailsWhenNothingWasCompared() throws {
        let mock = try TestSKANMock()
        _ = try mock.get(
            "/api/v1/conversion_value",
            [("a", "K"), ("i", "com.x"), ("p", "iOS"), ("idfv", "PLAIN"), ("conversion_value", "0")])
        mock.server.flushJournalLog()
        let empty = NSTemporaryDirectory() + "skan-mock-empty-\(UUID().uuidString).jsonl"
        defer { try? FileManager.default.removeItem(atPath: empty) }
        try Data().write(to: URL(fileURLWithPath: empty))
        for journal in [mock.logPath, empty] {
            let strict = try SKANMockExecutable.run(["compare", journal, "--fail-on-differences"])
            #expect(strict.status == 1)
            #expect(
                strict.error
                    == "skan-mock compare: nothing was compared: no entry of \(journal) has an upstream answer (write it with --upstream and --log)\n"
            )
            #expect(strict.output.hasPrefix("0 answers compared with the upstream"))
            #expect(try SKANMockExecutable.run(["compare", journal]).status == 0)
        }
    }

    #if SKAN_MOCK_UPSTREAM
        /// A shadowed request that came through a skan-mock already is not sent on (`upstream_loop`):
        /// `compare --fail-on-differences` used to count it as matched and pass (issue 41.1).
        @Test func compareFailsOnAnUpstreamThatNeverAnswered() throws {
            let upstream = try UpstreamOptions(baseURL: "http://127.0.0.1:9", mode: .shadow, timeoutSeconds: 1)
            let mock = try TestSKANMock(configure: { $0.upstream = upstream })
            let response = try mock.client.get(
                mock.url("/api/v1/conversion_value?a=K&i=com.x&p=iOS&idfv=LOOP&conversion_value=0"),
                headers: ["Via: 1.1 skan-mock"])
            #expect(response.status == 200)
            let entry = try #require(
                try mock.admin("/__admin/requests/wait?device=LOOP&count=1&timeout_ms=5000")["requests"]?[0])
            let codes = entry["issues"]?.arrayValue?.compactMap { $0["code"]?.stringValue } ?? []
            #expect(codes.contains("upstream_loop"), "\(codes)")
            mock.server.flushJournalLog()
            let strict = try SKANMockExecutable.run(["compare", mock.logPath, "--fail-on-differences"])
            #expect(strict.status == 1, "\(strict.output)")
            #expect(
                strict.output.hasPrefix(
                    "1 answer compared with the upstream: 0 matched, 0 differed, 1 without an upstream answer"))
            #expect(strict.output.contains("upstream_loop:\n  #1 LOOP"))
        }
    #endif
}
