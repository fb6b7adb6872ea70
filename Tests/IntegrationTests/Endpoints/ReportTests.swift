import Foundation
import SKANDomain
import Testing

@Suite("Journal reports: GET /__admin/report and skan-mock report")
struct ReportTests {
    private func skan4(_ device: String, coarse: String = "0") -> [(String, String)] {
        [("a", "k"), ("v", "17.0"), ("i", "com.x"), ("p", "iOS"), ("idfv", device), ("n", "__SESSION__"),
         ("skan_current_conversion_value", "0"), ("p0_coarse", coarse),
         ("skan_first_call_to_skadnetwork_timestamp", String(TestSKANMock.start))]
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

        let plain = try run(["report", journal])
        #expect(plain.status == 0)
        #expect(plain.output.contains("device C1: 1 request, windows p0"))
        #expect(plain.output.contains("line 2: not JSON"))

        let junit = dir + "/junit.xml"
        let failing = try run(["report", journal, "--junit", junit, "--fail-on-findings"])
        #expect(failing.status == 1)
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains(#"<testcase classname="skan-mock.devices" name="C1">"#))
        #expect(xml.contains(#"<failure type="coarse_value_out_of_range""#))

        let missing = try run(["report", dir + "/nope.jsonl"])
        #expect(missing.status == 2)
        #expect(missing.error.contains("nope.jsonl"))
    }

    private func run(_ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
        let process = Process()
        guard let binary = ProcessLifecycleTests.executable else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "build skan-mock first (swift build --build-tests)"])
        }
        process.executableURL = binary
        process.arguments = arguments
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }
}
