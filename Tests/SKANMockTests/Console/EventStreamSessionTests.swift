import Dispatch
import Foundation
import SKANDomain
import SystemPOSIX
import Testing

@testable import SKANMock

/// The console's event stream without sockets: a recording transport stands in for the connection,
/// and the heartbeat and the backlog's pauses run on a timer moved by hand.
@Suite("Event stream sessions")
struct EventStreamSessionTests {
    /// Tells a waiting test of each write and close, so it waits on them, not on a clock.
    final class Changes: Sendable {
        private let condition = NSCondition()

        func changed(_ change: () -> Void) {
            condition.lock()
            change()
            condition.broadcast()
            condition.unlock()
        }

        /// Waits until `holds` (at most 10 s, a failure rather than a hang); whether it does.
        func wait(until holds: () -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(10)
            condition.lock()
            defer { condition.unlock() }
            while !holds() {
                guard condition.wait(until: deadline) else { return holds() }
            }
            return true
        }
    }

    final class Recorder: EventStreamTransport {
        private let state = Mutex<(text: String, closed: Bool)>(("", false))
        private let changes = Changes()
        let pending: Int
        init(pending: Int = 0) { self.pending = pending }
        func write(_ bytes: [UInt8]) {
            changes.changed { state.withLock { $0.text += String(decoding: bytes, as: UTF8.self) } }
        }
        var pendingBytes: Int { pending }
        func close() { changes.changed { state.withLock { $0.closed = true } } }
        var text: String { state.withLock { $0.text } }
        var closed: Bool { state.withLock { $0.closed } }

        /// Waits until `condition` holds, woken by each write and close.
        func wait(_ condition: (Recorder) -> Bool) -> Bool {
            changes.wait { condition(self) }
        }
    }

    func journal(capacity: Int = 100) -> Journal {
        Journal(capacity: capacity, clock: ManualClock(seconds: 1_789_473_600), sink: nil)
    }

    func record(_ journal: Journal, device: String) {
        let request = SKANRequest(path: "/api/v2/conversion_value", parameters: [(name: "idfv", value: device)])
        journal.record(request: request, outcome: nil, endpoint: .skan4, status: 200, body: [], durationMicros: 0)
    }

    func ids(_ text: String) -> [String] {
        text.split(separator: "\n").filter { $0.hasPrefix("id: ") }.map { String($0.dropFirst(4)) }
    }

    @Test func readsWhereToStart() {
        #expect(EventStreamSession.start(lastEventId: "B:7", sinceId: 3, bootId: "B") == .after(7))
        #expect(EventStreamSession.start(lastEventId: "OLD:7", sinceId: nil, bootId: "B") == .otherBoot)
        #expect(EventStreamSession.start(lastEventId: "garbage", sinceId: nil, bootId: "B") == .otherBoot)
        #expect(EventStreamSession.start(lastEventId: nil, sinceId: 3, bootId: "B") == .after(3))
        #expect(EventStreamSession.start(lastEventId: nil, sinceId: nil, bootId: "B") == .now)
    }

    @Test func aFirstConnectionGetsOnlyNewEntriesMatchingItsFilter() {
        let j = journal()
        record(j, device: "A")
        let out = Recorder()
        let session = EventStreamSession(bootId: "B", filter: JournalFilter(device: "A"), journal: j, transport: out)
        session.open(.now)
        record(j, device: "B")
        record(j, device: "A")
        #expect(out.wait { $0.text.contains("id: B:3") })
        #expect(ids(out.text) == ["B:3"])
        #expect(out.text.contains("event: entry\ndata: {\"id\":3,"))
        session.close()
        #expect(out.closed && j.readerCount == 0)
    }

    @Test func resumingSendsWhatWasMissedOnceThenLiveEntries() {
        let j = journal()
        for _ in 0..<3 { record(j, device: "A") }
        let out = Recorder()
        let session = EventStreamSession(bootId: "B", filter: JournalFilter(), journal: j, transport: out)
        session.open(.after(1))
        record(j, device: "A")
        #expect(out.wait { ids($0.text).count == 3 })
        #expect(ids(out.text) == ["B:2", "B:3", "B:4"])
        #expect(!out.text.contains("event: reset"))
        session.close()
    }

    @Test func anotherBootOrALostPositionStartsWithAReset() {
        let j = journal(capacity: 2)
        for _ in 0..<4 { record(j, device: "A") }  // 1 and 2 dropped
        let lost = Recorder()
        let one = EventStreamSession(bootId: "B", filter: JournalFilter(), journal: j, transport: lost)
        one.open(.after(1))
        #expect(lost.wait { ids($0.text).count == 2 })
        #expect(lost.text.hasPrefix("event: reset\ndata: {}\n\n"))
        #expect(ids(lost.text) == ["B:3", "B:4"])
        let other = Recorder()
        let two = EventStreamSession(bootId: "B", filter: JournalFilter(), journal: j, transport: other)
        two.open(.otherBoot)
        #expect(other.wait { ids($0.text).count == 2 } && other.text.hasPrefix("event: reset"))
        one.close()
        two.close()
    }

    /// A console that was away during a reset comes back with the id of the last row it showed:
    /// that row is gone, so it is told to clear before the new rows (issue 21).
    @Test func aConsoleThatMissedAClearIsToldOnReconnect() {
        let j = journal()
        for _ in 0..<3 { record(j, device: "A") }
        j.clear()  // while the console was disconnected
        record(j, device: "B")
        let out = Recorder()
        let session = EventStreamSession(bootId: "B", filter: JournalFilter(), journal: j, transport: out)
        session.open(.after(3))  // Last-Event-ID: B:3, the last row it showed
        #expect(out.wait { ids($0.text) == ["B:4"] })
        #expect(out.text.hasPrefix("event: reset\ndata: {}\n\n"))
        session.close()
        // One that connected after the clear and saw B:4 resumes without a reset.
        let later = Recorder()
        let resumed = EventStreamSession(bootId: "B", filter: JournalFilter(), journal: j, transport: later)
        resumed.open(.after(4))
        record(j, device: "C")
        #expect(later.wait { ids($0.text) == ["B:5"] })
        #expect(!later.text.contains("event: reset"))
        resumed.close()
    }

    @Test func clearingTheJournalSendsAResetAtOnce() {
        let j = journal()
        let out = Recorder()
        let session = EventStreamSession(bootId: "B", filter: JournalFilter(), journal: j, transport: out)
        session.open(.now)
        j.clear()
        #expect(out.wait { $0.text.contains("event: reset\ndata: {}\n\n") })
        record(j, device: "A")
        #expect(out.wait { ids($0.text) == ["B:1"] })
        session.close()
    }

    @Test func aReaderTooFarBehindIsClosed() {
        let j = journal()
        let out = Recorder(pending: 2 << 20)
        let session = EventStreamSession(bootId: "B", filter: JournalFilter(), journal: j, transport: out)
        session.open(.now)
        record(j, device: "A")
        #expect(out.wait { $0.closed })
        #expect(j.readerCount == 0)
    }

    /// Catching up on more kept entries than a live reader may fall behind by still gets them all:
    /// the backlog goes out in chunks as the reader takes them.
    @Test func aLargeBacklogIsSentInChunksNotRefused() {
        let backlog = journal(capacity: 5_000)
        for _ in 0..<1_500 { record(backlog, device: "A") }
        let out = Recorder()
        let session = EventStreamSession(bootId: "B", filter: JournalFilter(), journal: backlog, transport: out)
        session.open(.after(0))
        record(backlog, device: "A")  // live, after the backlog
        #expect(out.wait { ids($0.text).count == 1_501 })
        #expect(ids(out.text) == (1...1_501).map { "B:\($0)" })
        #expect(!out.closed)
        session.close()
    }

    /// A transport whose reader never reads: everything written stays pending, as it would on a
    /// connection to a console that opened the stream and stopped.
    final class NeverReads: EventStreamTransport {
        private let writes = Mutex<[Int]>([])
        let changes = Changes()
        func write(_ bytes: [UInt8]) { changes.changed { writes.withLock { $0.append(bytes.count) } } }
        var pendingBytes: Int { writes.withLock { $0.reduce(0, +) } }
        func close() {}
        var sizes: [Int] { writes.withLock { $0 } }
    }

    /// Issue 43.10: a console that opened the stream from the start and never read held a copy of
    /// the journal (the first 200 entries in one write: 1.8 GiB for 30 consoles of a journal of
    /// large entries). The backlog goes out a chunk of bytes at a time, only as the reader takes it.
    @Test func aReaderThatNeverReadsHoldsAChunkNotTheJournal() {
        let j = journal()
        let big = (0..<5).map { (name: "f\($0)", value: String(repeating: "v", count: 4_000)) }
        for _ in 0..<60 {
            let request = SKANRequest(path: "/api/v2/conversion_value", parameters: big)
            j.record(request: request, outcome: nil, endpoint: .skan4, status: 200, body: [], durationMicros: 0)
        }
        #expect(j.bytes > 1_000_000)
        let out = NeverReads()
        let timer = ManualTimer()
        let session = EventStreamSession(
            bootId: "B", filter: JournalFilter(), journal: j, transport: out, timer: timer.timer)
        session.open(.after(0))
        #expect(out.changes.wait { !out.sizes.isEmpty })
        let first = out.sizes.first ?? 0
        #expect(first > 0 && first <= EventStreamSession.backlogChunkBytes + 25_000)
        // Later rounds add at most one more chunk: the reader has not taken the first, so each
        // round finds a chunk pending and pauses again.
        let pause = EventStreamSession.backlogPauseMilliseconds
        for _ in 0..<5 {
            #expect(timer.waitForTimer(pause))
            timer.advance(milliseconds: pause)
        }
        #expect(timer.waitForTimer(pause))
        #expect(out.pendingBytes <= 2 * (EventStreamSession.backlogChunkBytes + 25_000))
        session.close()
    }

    @Test func aQuietStreamGetsAHeartbeatComment() {
        let j = journal()
        let out = Recorder()
        let timer = ManualTimer()
        let session = EventStreamSession(
            bootId: "B", filter: JournalFilter(), journal: j, transport: out, timer: timer.timer)
        session.open(.now)
        #expect(timer.pending == [15_000])
        timer.advance(milliseconds: 14_000)
        #expect(timer.pending == [15_000])
        timer.advance(milliseconds: 1_000)
        #expect(out.wait { $0.text.contains(": keep-alive\n\n") })
        // And again one interval later.
        #expect(timer.waitForTimer(15_000))
        session.close()
        #expect(out.closed)
    }

    /// Every silence stays under one interval (issue 31.5): a timer that fires while the stream was
    /// busy waits only until one interval after the last write, not a whole period more.
    @Test func theHeartbeatIsDueOneIntervalAfterTheLastWrite() {
        let interval: Int64 = 15_000_000
        // An event went out 1 s before the timer fired: no comment, fire again in 14 s.
        let busy = EventStreamSession.heartbeatStep(lastSent: 100_000_000, now: 101_000_000, interval: interval)
        #expect(busy.comment == false && busy.nextIn == 14_000_000)
        // 14 s later, silent for the whole interval: a comment, then again in 15 s.
        let due = EventStreamSession.heartbeatStep(lastSent: 100_000_000, now: 115_000_000, interval: interval)
        #expect(due.comment == true && due.nextIn == interval)
        // A timer that fires a little early still counts as due.
        #expect(EventStreamSession.heartbeatStep(lastSent: 0, now: interval - 1_000, interval: interval).comment)
        // Whatever the timing of writes, the longest silence is one interval.
        var lastSent: Int64 = 0
        var now: Int64 = 0
        var longest: Int64 = 0
        let writes: [Int64] = [1_000_000, 14_900_000, 15_100_000, 29_000_000, 31_000_000, 60_000_000]
        var next = interval
        for _ in 0..<20 {
            let write = writes.first { $0 > now && $0 < next }
            if let write {
                longest = max(longest, write - lastSent)
                lastSent = write
                now = write
                continue
            }
            now = next
            let step = EventStreamSession.heartbeatStep(lastSent: lastSent, now: now, interval: interval)
            if step.comment {
                longest = max(longest, now - lastSent)
                lastSent = now
            }
            next = now + step.nextIn
        }
        #expect(longest <= interval)
    }

    /// An event 5 s into an interval moves the next comment to one interval after it: the timer
    /// that fires 10 s later finds the stream busy and waits the 5 s that are left.
    @Test func aHeartbeatFollowsAnEventWithinOneInterval() {
        let j = journal()
        let out = Recorder()
        let timer = ManualTimer()
        let session = EventStreamSession(
            bootId: "B", filter: JournalFilter(), journal: j, transport: out, timer: timer.timer)
        session.open(.now)
        timer.advance(milliseconds: 15_000)
        #expect(out.wait { $0.text.contains(": keep-alive\n\n") })
        #expect(timer.waitForTimer(15_000))
        timer.advance(milliseconds: 5_000)
        record(j, device: "D")
        #expect(out.wait { $0.text.contains("id: B:1") })
        timer.advance(milliseconds: 10_000)
        #expect(timer.waitForTimer(5_000))
        #expect(!out.text.hasSuffix(": keep-alive\n\n"))
        timer.advance(milliseconds: 5_000)
        #expect(out.wait { $0.text.hasSuffix(": keep-alive\n\n") && $0.text.contains("id: B:1") })
        session.close()
    }
}
