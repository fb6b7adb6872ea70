import Foundation
import SKANDomain
import Testing

/// A timestamp no clock gives, planted by the app under test, used to kill the server at a tester's
/// click (`/__admin/report`, the console's device view) and the CI step (`skan-mock report`): an
/// arithmetic overflow in the postbacks. Now a finding, and every one of them answers.
@Suite("Absurd timestamps, through the real executable")
struct AbsurdTimestampProcessTests {
    @Test func aNanosecondFirstCallIsAFindingAndKillsNothing() throws {
        let log = NSTemporaryDirectory() + "skan-mock-ns-\(UUID().uuidString).jsonl"
        defer { try? FileManager.default.removeItem(atPath: log) }
        let (process, port) = try SKANMockExecutable.serve(["--log", log])
        defer { #expect(process.terminateAndWait(), "the server stops") }
        let base = "http://127.0.0.1:\(port)"
        let client = CurlClient()
        // A real `time.time_ns()` in SKAN 4, and both ends of Int64 in SKAN 3 and S2S.
        let skan4 = try client.get(
            "\(base)/api/v2/conversion_value?a=K&i=com.x&p=iOS&idfv=NS&n=__SESSION__"
                + "&skan_first_call_to_skadnetwork_timestamp=1789000000123456789&p0_window_lock=9223372036854775807")
        #expect(skan4.status == 200)
        _ = try client.get(
            "\(base)/api/v1/conversion_value?a=K&i=com.x&p=iOS&idfv=NS&n=e&conversion_value=1"
                + "&first_call_to_skadnetwork_timestamp=-9223372036854775808")
        _ = try client.get(
            "\(base)/api/v1/evt?a=K&i=com.x&p=iOS&idfv=NS&n=buy&skan_first_call_timestamp=9223372036854775807")
        let entry = try #require(
            try JSONParser.parse(client.get("\(base)/__admin/requests?device=NS").body)["requests"]?[0])
        let codes = entry["issues"]?.arrayValue?.compactMap { $0["code"]?.stringValue } ?? []
        #expect(codes.filter { $0 == "timestamp_impossible" }.count == 2, "\(codes)")

        // What used to kill the server: the report and the device's postbacks, in every form.
        for path in [
            "/__admin/report", "/__admin/devices/NS/postbacks", "/__admin/devices/NS/postbacks?developer_mode=true",
            "/__admin/devices/NS/postbacks?framework=aak&tier=3"
        ] {
            #expect(try client.get(base + path).status == 200, "\(path)")
        }
        #expect(try client.get(base + "/__admin/health").status == 200)
        #expect(process.isRunning)

        // And the CI step on the journal the server wrote.
        let report = try SKANMockExecutable.run(["report", log])
        #expect(report.status == 0, "\(report.error)")
        #expect(report.output.contains("device NS"))
    }
}
