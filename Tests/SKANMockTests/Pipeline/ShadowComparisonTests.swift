import SKANDomain
import SystemPOSIX
import Testing

@testable import SKANMock

/// A shadowed entry's parts meet in `ShadowComparison`: once recorded, nothing of the request may
/// stay behind, whichever part came last.
@Suite("Shadow comparison")
struct ShadowComparisonTests {
    /// Holds the comparison as the request's answer does (`SingularAnswer.comparison`), while the
    /// record closure holds the answer: the cycle the comparison must break when it records.
    private final class Answer: Sendable {
        let comparison: ShadowComparison
        init(_ comparison: ShadowComparison) { self.comparison = comparison }
    }

    @Test(arguments: [true, false])
    func aRecordedEntryLetsGoOfItsRequest(replyFirst: Bool) {
        weak var weakAnswer: Answer?
        weak var weakComparison: ShadowComparison?
        let recorded = Mutex(0)
        do {
            let comparison = ShadowComparison.arriving(in: ArrivalOrder(), heldBytes: 0)
            let answer = Answer(comparison)
            weakAnswer = answer
            weakComparison = comparison
            let reply = ShadowComparison.Addition(findings: [], members: [])
            if replyFirst { comparison.upstreamReplied(reply) }
            answer.comparison.delivered(.delivered) { _, _ in
                _ = answer
                recorded.withLock { $0 += 1 }
            }
            if !replyFirst { comparison.upstreamReplied(reply) }
        }
        #expect(recorded.withLock { $0 } == 1)
        #expect(weakAnswer == nil, "the recorded request's answer is still held")
        #expect(weakComparison == nil, "the recorded request's comparison is still held")
    }
}
