import SystemPOSIX
import Testing

@testable import SKANDomain

/// Answers collected from waiters, in order.
private final class Answers: Sendable {
    private let state = Mutex<[Bool]>([])
    var all: [Bool] { state.withLock { $0 } }
    func add(_ timedOut: Bool) { state.withLock { $0.append(timedOut) } }
}

@Suite struct JournalWaitersTests {
    private func record(_ journal: Journal, _ service: ConversionService, device: String) {
        let req = request(.skan4, skan4Params(device: device))
        let o = service.handle(.skan4, req)
        journal.record(request: req, outcome: o, status: o.status, body: o.body, durationMicros: 1)
    }

    @Test func answersOnceEnoughMatchingEntriesArrive() {
        let clock = ManualClock(seconds: T0)
        let service = ConversionService(clock: clock)
        let journal = Journal(clock: clock)
        let answers = Answers()
        let id = journal.wait(for: JournalFilter(device: "A"), count: 2) { answers.add($0) }
        record(journal, service, device: "A")
        record(journal, service, device: "B")
        #expect(answers.all.isEmpty)
        record(journal, service, device: "A")
        #expect(answers.all == [false])
        record(journal, service, device: "A")
        #expect(journal.expire(id) == false)
        #expect(answers.all == [false])
        #expect(journal.waiters.count == 0)
    }

    @Test func answersAtOnceWhenTheEntriesAreAlreadyThere() {
        let clock = ManualClock(seconds: T0)
        let service = ConversionService(clock: clock)
        let journal = Journal(clock: clock)
        record(journal, service, device: "A")
        let answers = Answers()
        _ = journal.wait(for: JournalFilter(), count: 1) { answers.add($0) }
        #expect(answers.all == [false])
    }

    @Test func expiringAnswersTimedOutExactlyOnce() {
        let clock = ManualClock(seconds: T0)
        let service = ConversionService(clock: clock)
        let journal = Journal(clock: clock)
        let answers = Answers()
        let id = journal.wait(for: JournalFilter(sinceId: journal.lastId), count: 1) { answers.add($0) }
        #expect(journal.expire(id))
        #expect(journal.expire(id) == false)
        record(journal, service, device: "A")
        #expect(answers.all == [true])
    }

    @Test func manyWaitersEachGetOneAnswer() async {
        let clock = ManualClock(seconds: T0)
        let service = ConversionService(clock: clock)
        let journal = Journal(clock: clock)
        let answers = Answers()
        let ids = (0..<50).map { n in journal.wait(for: JournalFilter(), count: 1 + n % 5) { answers.add($0) } }
        await withTaskGroup(of: Void.self) { group in
            for n in 0..<4 { group.addTask { for _ in 0..<3 { record(journal, service, device: "D\(n)") } } }
        }
        for id in ids { journal.expire(id) }
        #expect(answers.all.count == 50)
        #expect(answers.all.allSatisfy { $0 == false })
    }

    @Test func expireAllAnswersEveryoneTimedOut() {
        let journal = Journal(clock: ManualClock(seconds: T0))
        let answers = Answers()
        for _ in 0..<3 { _ = journal.wait(for: JournalFilter(device: "none"), count: 1) { answers.add($0) } }
        journal.waiters.expireAll()
        #expect(answers.all == [true, true, true])
        #expect(journal.waiters.count == 0)
    }

    /// Issue 46.2: a waiter counts what matched when it came, then each later entry once; a
    /// tenant's waiter is not touched by another tenant's entries, and counts from nothing after
    /// its tenant's clear.
    @Test func aWaiterCountsEachEntryOnceAndOnlyItsTenants() {
        let clock = ManualClock(seconds: T0)
        let service = ConversionService(clock: clock)
        let journal = Journal(clock: clock)
        func send(_ tenant: String?, _ device: String) {
            let req = request(.skan4, skan4Params(device: device))
            let o = service.handle(.skan4, req)
            journal.record(request: req, outcome: o, status: o.status, body: o.body, durationMicros: 1, tenant: tenant)
        }
        send("a", "X")
        let answers = Answers()
        _ = journal.wait(for: JournalFilter(device: "X", tenant: .only("a")), count: 3) { answers.add($0) }
        for _ in 0..<5 { send("b", "X") }
        send(nil, "X")
        #expect(answers.all.isEmpty)
        send("a", "X")
        #expect(answers.all.isEmpty)
        // The clear empties a's entries: the waiter needs three new ones.
        journal.clear(tenant: "a")
        send("a", "X")
        send("a", "X")
        #expect(answers.all.isEmpty)
        send("a", "X")
        #expect(answers.all == [false])
        #expect(journal.waiters.count == 0)
    }
}
