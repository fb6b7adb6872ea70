import Foundation
import SKANDomain
import Testing

/// `skan-mock report` shows the postbacks with the route's options (issue 29): AdAttributionKit's
/// format in `--json`, a network that did not win, and a bad value named with its option.
@Suite("Report postbacks with options")
struct PostbackReportTests {
    @Test func frameworkAndDidWinReachTheReport() throws {
        let dir = NSTemporaryDirectory() + "skan-pb-report-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let mock = try TestSKANMock()
        #expect(
            try mock.get(
                "/api/v2/conversion_value",
                [
                    ("a", "K"), ("i", "com.x"), ("p", "iOS"), ("idfv", "RPB"), ("n", "__SESSION__"),
                    ("skan_first_call_to_skadnetwork_timestamp", String(TestSKANMock.start - 3 * 86_400))
                ]
            ).status == 200)
        let journal = dir + "/journal.jsonl"
        try (try mock.logLines().joined(separator: "\n") + "\n").write(
            toFile: journal, atomically: true, encoding: .utf8)

        let aak = try SKANMockExecutable.run(["report", journal, "--json", "--framework", "aak", "--did-win", "false"])
        #expect(aak.status == 0, "\(aak.error)")
        let json = try JSONParser.parse(Array(aak.output.utf8))
        let postbacks = json["devices"]?[0]?["postbacks"]
        #expect(postbacks?["framework"] == "aak" && postbacks?["did_win"] == false)
        let p0 = postbacks?["skan4"]?[3]?["postbacks"]?[0]
        #expect(p0?["jws"]?["payload"]?["did-win"] == false && p0?["apple"]?["jws-string"]?.stringValue != nil)
        #expect(postbacks?["skan4"]?[3]?["postbacks"]?[1]?["status"] == "never_sent")

        let bad = try SKANMockExecutable.run(["report", journal, "--framework", "skadnetwork"])
        #expect(bad.status == 64 && bad.error.contains("--framework must be skan or aak"), "\(bad.error)")
    }

    /// Issue 40.1, 40.5: `--developer-mode true` files the journal's answers by the minute, at tier
    /// 3, as the route does; `--country` adds the country-code.
    @Test func developerModeAndCountryReachTheReport() throws {
        let dir = NSTemporaryDirectory() + "skan-pb-report-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let mock = try TestSKANMock()
        let model =
            #"{"name":"dm","skan4":{"p0":{"entries":[{"fine":1,"coarse":"low","when":{"event":{"name":"a"}}},{"fine":20,"coarse":"high","when":{"event":{"name":"b"}}}]}}}"#
        #expect(try mock.client.request("PUT", mock.url("/__admin/model"), body: Array(model.utf8)).status == 200)
        for (event, seconds) in [("a", Int64(0)), ("b", Int64(240))] {
            mock.clock.advance(seconds: seconds)
            #expect(
                try mock.get(
                    "/api/v2/conversion_value",
                    [
                        ("a", "K"), ("i", "com.x"), ("p", "iOS"), ("idfv", "DMR"), ("n", event),
                        ("skan_first_call_to_skadnetwork_timestamp", String(TestSKANMock.start))
                    ]
                ).status == 200)
        }
        mock.clock.advance(seconds: 3600)
        #expect(try mock.get("/api/v1/conversion_value", [("a", "K"), ("idfv", "OTHER"), ("n", "x")]).status == 200)
        let journal = dir + "/journal.jsonl"
        try (try mock.logLines().joined(separator: "\n") + "\n").write(
            toFile: journal, atomically: true, encoding: .utf8)
        let run = try SKANMockExecutable.run(
            ["report", journal, "--json", "--developer-mode", "true", "--country", "DE"])
        #expect(run.status == 0, "\(run.error)")
        let postbacks = try JSONParser.parse(Array(run.output.utf8))["devices"]?[0]?["postbacks"]
        #expect(postbacks?["skan4"]?.arrayValue?.count == 1 && postbacks?["skan4"]?[0]?["tier"] == 3)
        let p = postbacks?["skan4"]?[0]?["postbacks"]
        #expect(p?[0]?["apple"]?["conversion-value"] == 1 && p?[0]?["apple"]?["country-code"] == "DE")
        #expect(p?[0]?["apple"]?["source-app-id"] == 0 && p?[1]?["apple"]?["coarse-conversion-value"] == "high")
        let bad = try SKANMockExecutable.run(["report", journal, "--country", "XX"])
        #expect(bad.status == 64 && bad.error.contains("--country must be an ISO 3166-1 alpha-2"), "\(bad.error)")
    }

}
