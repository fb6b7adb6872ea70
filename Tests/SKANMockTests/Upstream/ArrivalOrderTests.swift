import SystemPOSIX
import Testing

@testable import SKANMock

/// The order shadow mode journals in: completions run in ticket order, whatever order they come.
@Suite("Arrival order")
struct ArrivalOrderTests {
    @Test func completionsRunInTicketOrder() {
        let order = ArrivalOrder()
        let ran = Mutex<[Int]>([])
        let tickets = (0..<4).map { _ in order.ticket() }
        for ticket in [tickets[2], tickets[3], tickets[1]] {
            order.complete(ticket) { ran.withLock { $0.append(ticket) } }
        }
        #expect(ran.withLock { $0 }.isEmpty && order.held == 3)
        order.complete(tickets[0]) { ran.withLock { $0.append(tickets[0]) } }
        #expect(ran.withLock { $0 } == tickets && order.held == 0)
    }
}
