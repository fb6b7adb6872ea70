import HTTPCore
import SKANDomain
import Testing

@testable import SKANMock

/// Stage 3 in process: delays wait on the test's timer, so a delay and a stop during it are
/// tested without sleeping.
@Suite("Delivery: delays, drops and a stop")
struct AnswerDeliveryTests {
    private func fault(_ mock: InProcessServer, _ json: String) {
        #expect(mock.send(.put, "/__admin/faults", body: #"{"faults":[\#(json)]}"#).status == 200)
    }

    @Test func aDelayedAnswerIsJournaledWhenItIsSent() throws {
        let mock = try InProcessServer()
        fault(mock, #"{"endpoint":"skan4","type":"delay","delay_ms":250}"#)
        let answer = mock.session("D-1")
        #expect(answer.isWaiting && mock.entries.isEmpty)
        #expect(mock.timer.pending == [250] && mock.server.answersHeldBack == 1)
        mock.timer.fireAll()
        #expect(answer.status == 200)
        let entry = try #require(mock.entries.first)
        #expect(entry["fault"]?["delay_ms"] == 250 && entry["response"]?["status"] == 200)
        #expect(mock.metrics.contains(#"skan_mock_faults_total{type="delay"} 1"#))
    }

    @Test func aStopDuringTheDelayJournalsTheAnswerAsNotSent() throws {
        let mock = try InProcessServer()
        fault(mock, #"{"endpoint":"skan4","type":"delay","delay_ms":60000}"#)
        let answer = mock.session("D-2")
        mock.server.stop(gracePeriod: 0)
        #expect(answer.isWaiting)
        let entry = try #require(mock.entries.first)
        #expect(entry["response"]?["status"] == 0 && entry["response"]?["body"] == "")
        #expect(
            entry["not_sent"] == "the server stopped during the 60000 ms delay; the client got no answer")
        // The timer firing after the stop sends nothing.
        mock.timer.fireAll()
        #expect(answer.isWaiting && mock.entries.count == 1)
    }

    /// Shadow mode's delayed answers go through the same delays: a stop during one journals it
    /// as not sent, with the upstream's reply; and it never holds back the entries after it.
    @Test func aShadowedDelayedAnswerKeepsTheStopGuarantee() throws {
        let mock = try InProcessServer(upstream: .shadow)
        fault(mock, #"{"endpoint":"skan4","type":"delay","delay_ms":60000,"times":1}"#)
        let delayed = mock.session("D-3")
        let next = mock.session("D-3", event: "purchase")
        #expect(delayed.isWaiting && next.status == 200)
        mock.upstream.answer(0, #"{"status":"ok"}"#)
        mock.upstream.answer(1, #"{"status":"ok"}"#)
        #expect(mock.entries.compactMap { $0["event"]?.stringValue } == ["purchase"])
        mock.server.stop(gracePeriod: 0)
        #expect(delayed.isWaiting)
        let entry = try #require(mock.entries.last)
        #expect(entry["event"] == "__SESSION__" && entry["response"]?["status"] == 0)
        #expect(entry["not_sent"]?.stringValue?.hasPrefix("the server stopped during the 60000 ms delay") == true)
        #expect(entry["upstream"]?["body"] == #"{"status":"ok"}"#)
    }

    @Test func aDroppedConnectionIsJournaledAndCountedAsStatus0() throws {
        let mock = try InProcessServer()
        fault(mock, #"{"endpoint":"skan4","type":"drop"}"#)
        #expect(mock.session("D-4").isDropped)
        #expect(mock.entries.first?["response"]?["status"] == 0)
        #expect(mock.metrics.contains(#"skan_mock_requests_total{endpoint="skan4",status="0"} 1"#))
        // The fault replaced the answer: the device's state is as it was.
        #expect(mock.server.service.deviceState("D-4") == nil)
    }
}
