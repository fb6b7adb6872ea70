import HTTPCore
import SKANDomain
import Testing

@testable import SKANMock

/// A stop while upstream exchanges are open (issue 30.1): every request received is journaled,
/// answered or not sent with why, and the journal keeps arrival order.
@Suite("A stop drains the upstream")
struct UpstreamStopTests {
    @Test func proxyClientsGetA502AndEveryRequestIsJournaled() throws {
        let mock = try InProcessServer(upstream: .proxy)
        let answers = (0..<3).map { mock.session("STOP-\($0)") }
        mock.upstream.answer(1, #"{"status":"ok","conversion_value":4}"#)
        mock.server.stop(gracePeriod: 0)
        #expect(answers.map(\.status) == [502, 200, 502])
        let entries = mock.entries
        #expect(entries.compactMap { $0["device"]?.stringValue } == ["STOP-1", "STOP-0", "STOP-2"])
        #expect(entries[1]["upstream"]?["reason"] == "not sent to the upstream: the server was stopping")
        #expect(entries[1]["issues"]?[0]?["code"] == "upstream_skipped")
        #expect(entries[1]["upstream"]?["error"] == "not_sent")
    }

    @Test func shadowEntriesAreAllJournaledInArrivalOrder() throws {
        let mock = try InProcessServer(upstream: .shadow)
        for event in ["a", "b", "c"] { #expect(mock.session("STOP-S", event: event).status == 200) }
        mock.upstream.answer(2, #"{"status":"ok"}"#)
        #expect(mock.entries.isEmpty)
        mock.server.stop(gracePeriod: 0)
        let entries = mock.entries
        #expect(entries.compactMap { $0["event"]?.stringValue } == ["a", "b", "c"])
        #expect(entries.compactMap { $0["upstream"]?["error"]?.stringValue } == ["not_sent", "not_sent"])
        #expect(mock.upstream.openCount == 0)
    }

    @Test func aRequestAfterTheStopIsNotSentAndStillJournaled() throws {
        let mock = try InProcessServer(upstream: .shadow)
        mock.server.stop(gracePeriod: 0)
        #expect(mock.session("STOP-L").status == 200)
        #expect(mock.entries.first?["upstream"]?["error"] == "not_sent")
        #expect(mock.upstream.sent.isEmpty)
    }
}
