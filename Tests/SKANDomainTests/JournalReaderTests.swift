import SystemPOSIX
import Testing

@testable import SKANDomain

/// Live readers pull from the journal by position; commits wake armed readers once.
@Suite struct JournalReaderTests {
    func journal(capacity: Int = 100) -> Journal { Journal(capacity: capacity, clock: ManualClock(seconds: T0)) }

    func record(_ journal: Journal, device: String) {
        let request = SKANRequest(path: "/api/v2/conversion_value", parameters: [(name: "idfv", value: device)])
        journal.record(request: request, outcome: nil, endpoint: .skan4, status: 200, body: [], durationMicros: 0)
    }

    final class Wakes: Sendable {
        let count = Atomic<Int>(0)
        func wake() { count.add(1, ordering: .relaxed) }
        var value: Int { count.load(ordering: .relaxed) }
    }

    @Test func readsWhatIsNewAfterAPositionMatchingAFilter() {
        let j = journal()
        record(j, device: "A")
        let (reader, position) = j.addReader {}
        #expect(position == JournalPosition(lastId: 1, generation: 0))
        for device in ["A", "B", "A", "B"] { record(j, device: device) }
        let reading = j.read(
            after: position.lastId, generation: position.generation, matching: JournalFilter(device: "A"), limit: 10)
        #expect(reading.entries.map(\.id) == [2, 4])
        #expect(reading.cursor == 5 && !reading.more && !reading.reset)
        let again = j.read(after: reading.cursor, generation: reading.generation, matching: JournalFilter(), limit: 10)
        #expect(again.entries.isEmpty && again.cursor == 5)
        j.removeReader(reader)
        #expect(j.readerCount == 0)
    }

    @Test func aLimitStopsAtTheLastEntryTakenAndThroughBoundsTheReading() {
        let j = journal()
        for _ in 0..<6 { record(j, device: "A") }
        let first = j.read(after: 0, generation: 0, matching: JournalFilter(), limit: 4)
        #expect(first.entries.map(\.id) == [1, 2, 3, 4] && first.more && first.cursor == 4)
        let rest = j.read(after: first.cursor, generation: 0, matching: JournalFilter(), through: 5, limit: 4)
        #expect(rest.entries.map(\.id) == [5] && !rest.more && rest.cursor == 5)
    }

    @Test func aClearOrDroppedEntriesMeanAReset() {
        let j = journal(capacity: 2)
        for _ in 0..<4 { record(j, device: "A") }  // 1 and 2 dropped
        let lost = j.read(after: 1, generation: 0, matching: JournalFilter(), limit: 10)
        #expect(lost.reset && lost.entries.map(\.id) == [3, 4])
        let upToDate = j.read(after: 4, generation: 0, matching: JournalFilter(), limit: 10)
        #expect(!upToDate.reset)
        j.clear()
        record(j, device: "A")
        let cleared = j.read(after: 4, generation: 0, matching: JournalFilter(), limit: 10)
        #expect(cleared.reset && cleared.generation == 1 && cleared.entries.map(\.id) == [5])
        let next = j.read(after: cleared.cursor, generation: cleared.generation, matching: JournalFilter(), limit: 10)
        #expect(!next.reset && next.entries.isEmpty)
    }

    @Test func anArmedReaderIsWokenOnceAndEveryReaderByAClear() {
        let j = journal()
        let wakes = Wakes()
        let (reader, _) = j.addReader { wakes.wake() }
        record(j, device: "A")
        #expect(wakes.value == 0)  // not armed: it reads when it is ready
        reader.arm()
        record(j, device: "A")
        record(j, device: "A")
        #expect(wakes.value == 1)
        j.clear()
        #expect(wakes.value == 2)
        j.removeReader(reader)
        reader.arm()
        record(j, device: "A")
        #expect(wakes.value == 2)
    }
}
