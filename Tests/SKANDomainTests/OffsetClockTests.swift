import Dispatch
import Testing

@testable import SKANDomain

/// Time travel's offset, moved from many threads at once: every advance counts, and none passes the bound.
@Suite("Offset clock")
struct OffsetClockTests {
    @Test func concurrentAdvancesAllCount() {
        let clock = OffsetClock(base: ManualClock(seconds: T0))
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<1000 { _ = clock.advance(seconds: 1, within: -10_000...10_000) }
        }
        #expect(clock.offsetSeconds == 4000)
    }

    @Test func anAdvancePastTheBoundChangesNothing() {
        let clock = OffsetClock(base: ManualClock(seconds: T0), offsetSeconds: 90)
        #expect(clock.advance(seconds: 20, within: -100...100) == nil)
        #expect(clock.advance(seconds: Int64.max, within: -100...100) == nil)
        #expect(clock.advance(seconds: 10, within: -100...100) == 100)
        #expect(clock.offsetSeconds == 100)
    }
}
