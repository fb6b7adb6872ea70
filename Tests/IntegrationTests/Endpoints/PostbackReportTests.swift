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

}
