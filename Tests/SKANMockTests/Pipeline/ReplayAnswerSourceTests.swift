import Foundation
import HTTPCore
import SKANDomain
import Testing

@testable import SKANMock

/// `--replay` in process: a recorded answer first, the model's with a `not_recorded` finding after.
@Suite("Replayed answers")
struct ReplayAnswerSourceTests {
    private let recorded =
        #"{"status":"ok","conversion_value":0,"skan_updated_coarse_value":0,"skan_updated_lock_window_value":false}"#

    @Test func theRecordingAnswersThenTheModelWithAFinding() throws {
        let path = NSTemporaryDirectory() + "skan-mock-replay-\(UInt64.random(in: 1...UInt64.max)).json"
        let body = recorded.replacingOccurrences(of: "\"", with: "\\\"")
        let file = """
            {"version":1,"devices":[{"device":"RP-1","requests":[
            {"endpoint":"skan4","state":{"event":"__SESSION__","window":"p0","current_fine":0},"status":200,"body":"\(body)","journal_id":7}]}]}
            """
        try file.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let mock = try InProcessServer { $0.replayPath = path }
        #expect(mock.session("RP-1").text == recorded)
        #expect(mock.session("RP-1").text.contains(#""conversion_value":2"#))
        let entries = mock.entries
        #expect(entries[0]["replayed"] == true && entries[0]["recorded_id"] == 7)
        #expect(entries[0]["model"]?["body"]?.stringValue?.contains(#""conversion_value":1"#) == true)
        #expect(entries[1]["replayed"] == false)
        #expect(entries[1]["issues"]?[0]?["code"] == "not_recorded")
    }
}
