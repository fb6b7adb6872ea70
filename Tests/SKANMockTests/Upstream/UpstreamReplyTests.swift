import SKANDomain
import Testing

@testable import SKANMock

/// One wording of the upstream's replies, whichever transport made them.
@Suite("Upstream replies")
struct UpstreamReplyTests {
    @Test func anAnswerThatWouldBreakTheClientIsUnusable() {
        #expect(
            UpstreamReply.answer(status: 999, body: [], durationMicros: 1)
                == .failed(
                    .unusable,
                    reason:
                        "the upstream's answer cannot be passed on: status 999 is not an HTTP status from 200 to 599",
                    durationMicros: 1))
        guard case .failed(.unusable, _, _) = UpstreamReply.answer(status: 204, body: [1], durationMicros: 1) else {
            Issue.record("a 204 with a body was passed on")
            return
        }
        #expect(
            UpstreamReply.answer(status: 200, body: [1], durationMicros: 1)
                == .answered(status: 200, body: [1], durationMicros: 1))
    }

    /// The journal's `upstream.error` and the finding of each failure.
    @Test func eachFailureHasItsJournalNameAndFinding() {
        let failures: [UpstreamReply.Failure] = [.timeout, .unreachable, .unusable, .notSent, .loop]
        #expect(failures.map(\.rawValue) == ["timeout", "unreachable", "unusable", "not_sent", "loop"])
        #expect(
            failures.map(\.findingCode.rawValue) == [
                "upstream_timeout", "upstream_unreachable", "upstream_unusable", "upstream_skipped", "upstream_loop"
            ])
        #expect(
            UpstreamReply.notSentStopping.member.value == [
                "error": "not_sent", "reason": "not sent to the upstream: the server was stopping", "duration_us": 0
            ])
    }

    @Test func aBodyThatIsNotUTF8IsKeptAsBase64() {
        let reply = UpstreamReply.answered(status: 200, body: [0x7B, 0xFF], durationMicros: 5)
        #expect(reply.member.key == "upstream")
        #expect(reply.member.value["body_base64"] == .string(Base64.encode([0x7B, 0xFF])))
        #expect(reply.member.value["body"] == nil)
    }
}
