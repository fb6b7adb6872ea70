import SKANDomain
import Testing

@testable import SKANMock

/// `/__admin/requests/wait` on the server's timer moved by hand: a wait is answered by the
/// requests it counts or by its timer, never by the time a test happens to take.
@Suite("Journal waits in process")
struct JournalWaitTests {
    private func json(_ answer: InProcessServer.Answer) -> JSONValue {
        (try? JSONParser.parse(Array(answer.text.utf8))) ?? .null
    }

    @Test func aWaitIsAnsweredWhenItsRequestsArriveWhileOthersRunOut() throws {
        let mock = try InProcessServer()
        let waiting = mock.send(.get, "/__admin/requests/wait?device=W&count=2&timeout_ms=20000")
        #expect(waiting.isWaiting && mock.timer.pending == [20_000])
        // The waiter holds nothing: another waiter runs out meanwhile, the first one has not.
        let other = mock.send(.get, "/__admin/requests/wait?device=nobody&timeout_ms=100")
        mock.timer.advance(milliseconds: 100)
        #expect(json(other)["timed_out"] == true)
        #expect(waiting.isWaiting)
        mock.session("W")
        mock.session("X")
        #expect(waiting.isWaiting)
        mock.session("W")
        let body = json(waiting)
        #expect(body.objectValue?.map(\.key) == ["requests", "total", "dropped", "timed_out"])
        #expect(body["timed_out"] == false && body["total"] == 2)
        #expect(body["requests"]?.arrayValue?.compactMap { $0["device"]?.stringValue } == ["W", "W"])
        // Its timer firing later changes nothing.
        mock.timer.advance(milliseconds: 20_000)
        #expect(json(waiting)["timed_out"] == false)
    }

    @Test func aWaitThatRunsOutAnswersWithWhatThereIs() throws {
        let mock = try InProcessServer()
        mock.session("T")
        let waiting = mock.send(.get, "/__admin/requests/wait?device=T&count=3&timeout_ms=150")
        mock.timer.advance(milliseconds: 149)
        #expect(waiting.isWaiting)
        mock.timer.advance(milliseconds: 1)
        let body = json(waiting)
        #expect(waiting.status == 200 && body["timed_out"] == true && body["total"] == 1)
    }

    @Test func manyWaitersAtOnce() throws {
        let mock = try InProcessServer()
        let waiters = (0..<20).map { n in
            mock.send(.get, "/__admin/requests/wait?device=M\(n % 4)&timeout_ms=20000")
        }
        let allWaiting = waiters.allSatisfy { $0.isWaiting }
        #expect(allWaiting)
        for n in 0..<4 { mock.session("M\(n)") }
        for waiter in waiters {
            let body = json(waiter)
            #expect(body["timed_out"] == false && body["total"] == 1)
        }
    }
}
