import SystemPOSIX
import Testing

@testable import SKANMock

/// The order shadow mode journals in: completions run in ticket order, whatever order they come,
/// and what waits is bounded: past a limit the oldest is given up, still in order.
@Suite("Arrival order")
struct ArrivalOrderTests {
    /// An entry that says in `ran` when its turn ran, and whether it was given up.
    final class Probe: ArrivalOrder.Entry {
        let ticket: Int
        let heldBytes: Int
        let ran: Mutex<[String]>

        init(_ ticket: Int, bytes: Int, ran: Mutex<[String]>) {
            self.ticket = ticket
            heldBytes = bytes
            self.ran = ran
        }

        func givenUp(waiting: Int, bytes: Int) -> @Sendable () -> Void {
            { [ran, ticket] in ran.withLock { $0.append("\(ticket) given up (\(waiting), \(bytes))") } }
        }

        func complete(in order: ArrivalOrder) {
            order.complete(ticket) { [ran, ticket] in ran.withLock { $0.append("\(ticket)") } }
        }
    }

    private func enter(_ count: Int, bytes: Int = 10, in order: ArrivalOrder, _ ran: Mutex<[String]>) -> [Probe] {
        (0..<count).map { _ in order.enter { Probe($0, bytes: bytes, ran: ran) } }
    }

    @Test func completionsRunInTicketOrder() {
        let order = ArrivalOrder()
        let ran = Mutex<[String]>([])
        let probes = enter(4, in: order, ran)
        for probe in [probes[2], probes[3], probes[1]] { probe.complete(in: order) }
        #expect(ran.withLock { $0 }.isEmpty && order.held == 3)
        probes[0].complete(in: order)
        #expect(ran.withLock { $0 } == ["0", "1", "2", "3"] && order.held == 0)
    }

    /// An upstream that never answers: each entry past the count gives up the oldest, in order,
    /// and a reply that comes after is dropped.
    @Test func pastTheCountTheOldestIsGivenUpInOrder() {
        let order = ArrivalOrder(limits: .init(entries: 3, bytes: 1 << 20))
        let ran = Mutex<[String]>([])
        let probes = enter(5, in: order, ran)
        #expect(ran.withLock { $0 } == ["0 given up (4, 40)", "1 given up (4, 40)"])
        #expect(order.waiting == (3, 30) && order.givenUp == 2)
        probes[0].complete(in: order)  // too late: dropped
        probes[3].complete(in: order)
        probes[2].complete(in: order)
        #expect(ran.withLock { $0 }.suffix(2) == ["2", "3"])
        #expect(order.waiting == (1, 10))
        probes[4].complete(in: order)
        #expect(order.waiting == (0, 0))
    }

    /// A give-up lets every entry already complete behind it run.
    @Test func aGiveUpRunsTheCompleteEntriesBehindIt() {
        let order = ArrivalOrder(limits: .init(entries: 3, bytes: 1 << 20))
        let ran = Mutex<[String]>([])
        let probes = enter(3, in: order, ran)
        probes[1].complete(in: order)
        probes[2].complete(in: order)
        _ = enter(1, in: order, ran)
        #expect(ran.withLock { $0 } == ["0 given up (4, 40)", "1", "2"])
        #expect(order.waiting == (1, 10))
    }

    @Test func pastTheBytesTheOldestIsGivenUp() {
        let order = ArrivalOrder(limits: .init(entries: 100, bytes: 2500))
        let ran = Mutex<[String]>([])
        _ = enter(3, bytes: 1000, in: order, ran)
        #expect(ran.withLock { $0 } == ["0 given up (3, 3000)"])
        #expect(order.waiting == (2, 2000))
    }

    /// The newest entry is never given up for itself: one larger than the limit still waits for
    /// its reply (it is bounded by the request limits).
    @Test func theNewestEntryIsNeverGivenUpForItself() {
        let order = ArrivalOrder(limits: .init(entries: 1, bytes: 10))
        let ran = Mutex<[String]>([])
        let probe = enter(1, bytes: 1000, in: order, ran)[0]
        #expect(ran.withLock { $0 }.isEmpty)
        probe.complete(in: order)
        #expect(ran.withLock { $0 } == ["0"])
    }
}
