import Testing

@testable import HTTPCore

@Suite("ConnectionTimeouts")
struct ConnectionTimeoutsTests {
    private let limits = HTTPLimits.Timeouts(header: 10, body: 20, idle: 30, write: 30)

    @Test func closesAnIdleConnectionAfterTheIdleTimeout() {
        let timeouts = ConnectionTimeouts(limits: limits, now: 100)
        #expect(timeouts.action(at: 129.9) == nil)
        #expect(timeouts.action(at: 130) == .close)
    }

    @Test func answers408WhenTheHeadIsNotCompleteInTime() {
        var timeouts = ConnectionTimeouts(limits: limits, now: 0)
        timeouts.enter(.readingHead, at: 5)
        // More bytes of the same head do not restart the clock: a trickle cannot outlast it.
        timeouts.enter(.readingHead, at: 14)
        #expect(timeouts.action(at: 14.9) == nil)
        #expect(timeouts.action(at: 15) == .requestTimeout)
    }

    @Test func answers408WhenTheBodyIsNotCompleteInTime() {
        var timeouts = ConnectionTimeouts(limits: limits, now: 0)
        timeouts.enter(.readingHead, at: 1)
        timeouts.enter(.readingBody, at: 2)
        // Each trickle of body bytes reports the same phase: the deadline stays where it was
        // (nginx's and h11-based servers' answer to a slow body), it is not kept alive by each byte.
        for second in 3...21 { timeouts.enter(.readingBody, at: Double(second)) }
        #expect(timeouts.action(at: 21.9) == nil)
        #expect(timeouts.action(at: 22) == .requestTimeout)
    }

    @Test func theNextBodyGetsAFreshDeadline() {
        var timeouts = ConnectionTimeouts(limits: limits, now: 0)
        timeouts.enter(.readingBody, at: 0)
        timeouts.enter(.responding, at: 15)
        timeouts.enter(.readingBody, at: 16)
        #expect(timeouts.action(at: 35.9) == nil)
        #expect(timeouts.action(at: 36) == .requestTimeout)
    }

    @Test func neverTimesOutWhileAHandlerOwnsTheRequest() {
        var timeouts = ConnectionTimeouts(limits: limits, now: 0)
        timeouts.enter(.responding, at: 0)
        #expect(timeouts.action(at: 10_000) == nil)
    }

    @Test func dropsAClientThatStopsReading() {
        var timeouts = ConnectionTimeouts(limits: limits, now: 0)
        timeouts.enter(.writing, at: 1)
        #expect(timeouts.action(at: 30.5) == nil)
        #expect(timeouts.action(at: 31) == .close)
    }

    @Test func givesUpDrainingAfterTwoSeconds() {
        var timeouts = ConnectionTimeouts(limits: limits, now: 0)
        timeouts.enter(.draining, at: 3)
        #expect(timeouts.action(at: 4.9) == nil)
        #expect(timeouts.action(at: 5) == .close)
    }

    @Test func aNewRequestRestartsTheClock() {
        var timeouts = ConnectionTimeouts(limits: limits, now: 0)
        timeouts.enter(.responding, at: 20)
        timeouts.enter(.idle, at: 25)
        #expect(timeouts.action(at: 54) == nil)
        #expect(timeouts.action(at: 55) == .close)
    }
}
