import Foundation
import SKANDomain
import Testing

/// `--resume` (issue 22): a restarted server reads its `--log` file back and answers the next
/// request as if it had never stopped; a line cut short by a kill is skipped.
@Suite("Resuming from the journal file")
struct ResumeTests {
    private func session(_ device: String) -> [(String, String)] {
        [
            ("a", "K"), ("i", "com.x"), ("p", "iOS"), ("idfv", device), ("n", "__SESSION__"),
            ("skan_current_conversion_value", "0"),
            ("skan_first_call_to_skadnetwork_timestamp", String(TestSKANMock.start - 60))
        ]
    }

    @Test func aRestartAnswersAsIfThereHadBeenNone() throws {
        // What three sessions get from one server that never stops.
        let steady = try TestSKANMock()
        let expected = try (1...3).map { _ in try steady.get("/api/v2/conversion_value", session("R")).text }

        let log = NSTemporaryDirectory() + "skan-resume-\(UUID().uuidString).jsonl"
        defer { try? FileManager.default.removeItem(atPath: log) }
        do {
            let first = try TestSKANMock { $0.logPath = log }
            #expect(try first.get("/api/v2/conversion_value", session("R")).text == expected[0])
            #expect(try first.get("/api/v2/conversion_value", session("R")).text == expected[1])
            first.server.stop()
        }
        // A kill in the middle of a write leaves half a line.
        let handle = try #require(FileHandle(forWritingAtPath: log))
        handle.seekToEndOfFile()
        handle.write(Data(#"{"id":3,"time":"2026-09-15T12:00:00.0"#.utf8))
        handle.closeFile()

        let restarted = try TestSKANMock {
            $0.logPath = log
            $0.resume = true
        }
        #expect(restarted.server.notices.contains { $0.contains("was cut short") })
        #expect(restarted.server.notices.contains { $0.hasPrefix("skan-mock: resumed 2 journal entries") })
        // One device: "1 device", not "1 devices".
        #expect(restarted.server.notices.contains { $0.hasSuffix(", 1 device)") })
        #expect(try restarted.journal("device=R").map { $0["id"]?.intValue } == [1, 2])
        #expect(try restarted.get("/api/v2/conversion_value", session("R")).text == expected[2])
        #expect(try restarted.journal("device=R").last?["id"] == 3)
        // The torn line is gone from the file, and the new line starts on its own.
        restarted.server.flushJournalLog()
        let ids = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
            .map { try JSONParser.parse(Array($0.utf8))["id"]?.intValue }
        #expect(ids == [1, 2, 3])
        let device = try restarted.admin("/__admin/devices/R")
        #expect(device["skan4"]?["p0"]?["events"]?["__SESSION__"] == 3)
    }

    /// A replayed (or proxied) answer is what the device acted on: a restart keeps it, not the
    /// model's answer journaled beside it.
    @Test func aRestartKeepsTheAnswersAReplayGave() throws {
        let dir = NSTemporaryDirectory() + "skan-resume-replay-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let recorded =
            #"{"status":"ok","conversion_value":0,"skan_updated_coarse_value":2,"skan_updated_lock_window_value":false}"#
        let replay =
            #"{"version":1,"devices":[{"device":"RR","requests":[{"endpoint":"skan4","state":{"event":"__SESSION__","window":"p0","current_fine":0},"status":200,"body":""#
            + recorded.replacingOccurrences(of: "\"", with: "\\\"") + #""}]}]}"#
        try replay.write(toFile: dir + "/replay.json", atomically: true, encoding: .utf8)
        let log = dir + "/run.jsonl"
        do {
            let first = try TestSKANMock {
                $0.logPath = log
                $0.replayPath = dir + "/replay.json"
            }
            #expect(try first.get("/api/v2/conversion_value", session("RR")).text == recorded)
            first.server.stop()
        }
        let restarted = try TestSKANMock {
            $0.logPath = log
            $0.resume = true
        }
        let device = try restarted.admin("/__admin/devices/RR")
        #expect(device["skan4"]?["p0"]?["last_returned"] == ["fine": 0, "coarse": 2, "lock": false])
    }

    @Test func resumeNeedsALogFile() {
        #expect(throws: (any Error).self) {
            _ = try TestSKANMock {
                $0.logPath = nil
                $0.resume = true
            }
        }
    }

    /// Writes a log of `count` sessions of device R from a server that stops, and returns its lines.
    private func journalLines(_ log: String, count: Int, between: ((TestSKANMock) throws -> Void)? = nil) throws
        -> [String]
    {
        let first = try TestSKANMock { $0.logPath = log }
        for n in 1...count {
            _ = try first.get("/api/v2/conversion_value", session("R"))
            if n == count / 2, let between { try between(first) }
        }
        first.server.stop()
        return try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    /// A NUL byte in one line, lines out of id order and a whole last line without its newline
    /// (issue 30.3): the bad line is skipped with its number and reason, every other entry rebuilds
    /// its device and is listed again (the entries before the gap too), and the last line is kept
    /// and ended, not cut.
    @Test func aBadLineIsSkippedAloneAndAWholeLastLineIsKept() throws {
        let log = NSTemporaryDirectory() + "skan-resume-bad-\(UUID().uuidString).jsonl"
        defer { try? FileManager.default.removeItem(atPath: log) }
        var lines = try journalLines(log, count: 6)
        #expect(lines.count == 6)
        lines[1] = lines[1].replacingOccurrences(of: "__SESSION__", with: "__SES\u{0}SION__")
        lines.swapAt(3, 4)
        try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: log))

        let restarted = try TestSKANMock {
            $0.logPath = log
            $0.resume = true
        }
        #expect(restarted.server.notices.contains { $0.hasPrefix("skan-mock: --resume: \(log):2: skipped: not JSON") })
        #expect(!restarted.server.notices.contains { $0.contains("cut short") })
        #expect(try restarted.journal("device=R").map { $0["id"]?.intValue } == [1, 3, 4, 5, 6])
        let device = try restarted.admin("/__admin/devices/R")
        #expect(device["skan4"]?["p0"]?["events"]?["__SESSION__"] == 5)
        _ = try restarted.get("/api/v2/conversion_value", session("R"))
        restarted.server.flushJournalLog()
        let text = try String(contentsOfFile: log, encoding: .utf8)
        let last = try #require(text.split(separator: "\n").last)
        #expect(try JSONParser.parse(Array(last.utf8))["id"] == 7)
        #expect(text.split(separator: "\n").count == 7)
    }

    /// An entry answered with a delay fault was answered as the model did, so it rebuilds its
    /// device (issue 30.3); one whose answer a fault replaced does not.
    @Test func aDelayedAnswerIsRestored() throws {
        let log = NSTemporaryDirectory() + "skan-resume-delay-\(UUID().uuidString).jsonl"
        defer { try? FileManager.default.removeItem(atPath: log) }
        var lines = try journalLines(log, count: 3)
        lines[1] = lines[1].replacingOccurrences(of: #"{"id":2,"#, with: #"{"id":2,"fault":{"delay_ms":50},"#)
        lines[2] = lines[2].replacingOccurrences(
            of: #"{"id":3,"#, with: #"{"id":3,"fault":{"type":"malformed"},"#)
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: log))
        let restarted = try TestSKANMock {
            $0.logPath = log
            $0.resume = true
        }
        let device = try restarted.admin("/__admin/devices/R")
        #expect(device["skan4"]?["p0"]?["events"]?["__SESSION__"] == 2)
    }

    /// POST /__admin/reset and DELETE /__admin/requests write a marker to the journal file, and a
    /// restart honours it (issue 30.4): what a reset forgot stays forgotten; what a clear emptied
    /// is not listed again, but its devices keep their state, as they did before the restart.
    @Test func aRestartHonoursResetsAndClears() throws {
        let resetLog = NSTemporaryDirectory() + "skan-resume-reset-\(UUID().uuidString).jsonl"
        defer { try? FileManager.default.removeItem(atPath: resetLog) }
        let resetLines = try journalLines(resetLog, count: 4) { mock in
            _ = try mock.client.request("POST", mock.url("/__admin/reset"))
        }
        #expect(resetLines[2] == #"{"type":"reset","through":2,"devices":true}"#)
        let afterReset = try TestSKANMock {
            $0.logPath = resetLog
            $0.resume = true
        }
        #expect(try afterReset.journal("device=R").map { $0["id"]?.intValue } == [3, 4])
        #expect(try afterReset.admin("/__admin/devices/R")["skan4"]?["p0"]?["events"]?["__SESSION__"] == 2)

        let clearLog = NSTemporaryDirectory() + "skan-resume-clear-\(UUID().uuidString).jsonl"
        defer { try? FileManager.default.removeItem(atPath: clearLog) }
        _ = try journalLines(clearLog, count: 4) { mock in
            _ = try mock.client.request("DELETE", mock.url("/__admin/requests"))
        }
        let afterClear = try TestSKANMock {
            $0.logPath = clearLog
            $0.resume = true
        }
        #expect(try afterClear.journal("device=R").map { $0["id"]?.intValue } == [3, 4])
        #expect(try afterClear.admin("/__admin/devices/R")["skan4"]?["p0"]?["events"]?["__SESSION__"] == 4)
    }

    /// A log written under another model: the devices get back what the journal says they were
    /// answered, not what the current model would answer now (issue 30.5).
    @Test func aRestartRestoresWhatTheJournalSaysNotTheCurrentModel() throws {
        let log = NSTemporaryDirectory() + "skan-resume-model-\(UUID().uuidString).jsonl"
        defer { try? FileManager.default.removeItem(atPath: log) }
        let revenue = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("config/revenue.json").path
        let given: JSONValue?
        do {
            let first = try TestSKANMock {
                $0.logPath = log
                $0.modelPath = revenue
            }
            for _ in 1...3 { _ = try first.get("/api/v2/conversion_value", session("M")) }
            given = try first.admin("/__admin/devices/M")["skan4"]?["p0"]?["last_returned"]
            first.server.stop()
        }
        let steady = try TestSKANMock()
        for _ in 1...3 { _ = try steady.get("/api/v2/conversion_value", session("M")) }
        let recomputed = try steady.admin("/__admin/devices/M")["skan4"]?["p0"]?["last_returned"]
        #expect(
            given != recomputed, "the two models must answer this sequence differently for the test to mean anything")

        let restarted = try TestSKANMock {
            $0.logPath = log
            $0.resume = true
        }
        #expect(try restarted.admin("/__admin/devices/M")["skan4"]?["p0"]?["last_returned"] == given)
    }
}
