import HTTPCore
import SKANDomain
import Testing

@testable import SKANMock

/// `--upstream-mode shadow` in process: the client gets the model's answer at once; the entry
/// waits for the twin's reply, and entries keep arrival order whatever order the replies come in.
@Suite("Shadow answers")
struct ShadowAnswerSourceTests {
    private let modelAnswer =
        #"{"status":"ok","conversion_value":1,"skan_updated_coarse_value":0,"skan_updated_lock_window_value":false}"#

    @Test func theClientIsAnsweredAtOnceAndTheEntryWaitsForTheUpstream() throws {
        let mock = try InProcessServer(upstream: .shadow)
        let answer = mock.session("S-1")
        #expect(answer.text == modelAnswer)
        #expect(mock.entries.isEmpty)
        mock.upstream.answer(0, modelAnswer)
        let entry = try #require(mock.entries.first)
        #expect(entry["upstream"]?["body"]?.stringValue == modelAnswer)
        #expect(entry["issues"]?.arrayValue?.isEmpty == true)
    }

    /// The journal is in arrival order: the upstream answers the three requests backwards, and
    /// the entries still come in the order the requests arrived, with increasing ids. `--resume`
    /// and `skan-mock report` rebuild devices from entries in id order and rely on this.
    @Test func entriesKeepArrivalOrderWhateverOrderTheUpstreamAnswersIn() throws {
        let mock = try InProcessServer(upstream: .shadow)
        let events = ["first", "second", "third"]
        for event in events { #expect(mock.session("S-2", event: event).status == 200) }
        mock.upstream.answer(2, modelAnswer)
        mock.upstream.timeOut(1)
        #expect(mock.entries.isEmpty)
        mock.upstream.answer(0, #"{"status":"ok","conversion_value":9}"#)
        let entries = mock.entries
        #expect(entries.compactMap { $0["event"]?.stringValue } == events)
        #expect(entries.compactMap { $0["id"]?.intValue } == [1, 2, 3])
        #expect(entries[0]["issues"]?[0]?["code"] == "differs_from_upstream")
        #expect(entries[1]["upstream"]?["error"] == "timeout")
        #expect(entries[1]["issues"]?[0]?["code"] == "upstream_timeout")
        #expect(entries[2]["upstream"]?["status"] == 200)
    }

    /// Arrival order holds across devices too: one slow reply holds back the entries after it,
    /// never lets them pass.
    @Test func aSlowReplyHoldsBackLaterEntriesAcrossDevices() throws {
        let mock = try InProcessServer(upstream: .shadow)
        mock.session("S-A")
        mock.session("S-B")
        mock.upstream.answer(1, modelAnswer)
        #expect(mock.entries.isEmpty)
        mock.upstream.answer(0, modelAnswer)
        #expect(mock.entries.compactMap { $0["device"]?.stringValue } == ["S-A", "S-B"])
    }

    @Test func faultsApplyToTheClientsAnswerAndTheModelsIsCompared() throws {
        let mock = try InProcessServer(upstream: .shadow)
        #expect(
            mock.send(.put, "/__admin/faults", body: #"{"faults":[{"endpoint":"skan4","type":"status","status":503}]}"#)
                .status == 200)
        let answer = mock.session("S-3")
        #expect(answer.status == 503)
        mock.upstream.answer(0, modelAnswer)
        let entry = try #require(mock.entries.first)
        #expect(entry["response"]?["status"] == 503)
        #expect(entry["fault"]?["type"] == "status")
        // The model's own answer is what is compared: it matched.
        #expect(entry["issues"]?.arrayValue?.isEmpty == true)
    }

    /// An upstream that never answers used to hold every request of a flood until its timeout
    /// (3-4 GiB at 60 s). What waits is bounded: past it the oldest entries are journaled at once
    /// as given up, in arrival order, and their late replies are dropped.
    @Test func anUpstreamThatNeverAnswersHoldsABoundedNumberOfEntries() throws {
        let mock = try InProcessServer(upstream: .shadow) { $0.upstream?.maxShadowEntries = 8 }
        let events = (0..<50).map { "e\($0)" }
        for event in events { #expect(mock.session("S-F", event: event).status == 200) }
        let entries = mock.entries
        #expect(entries.count == 42)
        #expect(entries.compactMap { $0["event"]?.stringValue } == Array(events.prefix(42)))
        #expect(entries.compactMap { $0["id"]?.intValue } == Array(1...42))
        #expect(entries.allSatisfy { $0["issues"]?[0]?["code"] == "upstream_skipped" })
        #expect(entries[0]["upstream"]?["error"] == "not_sent")
        #expect(entries[0]["upstream"]?["reason"]?.stringValue?.hasPrefix("given up: 9 requests") == true)
        #expect(mock.server.upstreamArrivals?.waiting.entries == 8)
        // A reply to an entry given up is dropped; the ones still waiting are journaled as usual.
        mock.upstream.answer(0, modelAnswer)
        for index in 42..<50 { mock.upstream.answer(index, modelAnswer) }
        let all = mock.entries
        #expect(all.count == 50)
        #expect(all.compactMap { $0["event"]?.stringValue } == events)
        #expect(all[42]["upstream"]?["status"] == 200)
        let waiting = try #require(mock.server.upstreamArrivals?.waiting)
        #expect(waiting == (0, 0))
    }

    @Test func theBytesWaitingAreBoundedToo() throws {
        let mock = try InProcessServer(upstream: .shadow) { $0.upstream?.maxShadowBytes = 4096 }
        for n in 0..<6 { mock.session("S-B\(n)") }
        // Each entry holds its request, its answer and about 1 KiB: two or three fit in 4 KiB.
        let waiting = try #require(mock.server.upstreamArrivals?.waiting)
        #expect(waiting.bytes <= 4096 && waiting.entries >= 2)
        #expect(mock.entries.count == 6 - waiting.entries)
    }
}
