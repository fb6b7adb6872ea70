import Dispatch
import HTTPCore
import SKANDomain
import Testing

@testable import SKANMock

/// The sender as a lifecycle part, in process (its transport a twin): a stop while a send is in
/// flight lets the post under way finish, posts nothing more, and journals each post it did not
/// make as `not_sent`, so the journal says what the receiver never got (issue 48).
@Suite("Postback sender stopped mid-send")
struct PostbackSenderStopTests {
    @Test func aStopDuringASendJournalsThePostsNotMade() throws {
        let transport = PostbackTransportTwin(holdingTheFirstPost: true)
        let mock = try InProcessServer(postbacks: transport)
        mock.session("STOP-1")
        mock.clock.advance(seconds: 3 * 86_400)
        let send = mock.send(
            .post, "/__admin/devices/STOP-1/postbacks/send", body: #"{"url":"http://receiver.test:9/","tier":3}"#)
        #expect(transport.waitForTheFirstPost(), "the first post never reached the transport")
        #expect(send.isWaiting)
        // The stop marks the sender stopped at once, then gives the post under way its grace period.
        let stopped = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            mock.server.stop(gracePeriod: 10)
            stopped.signal()
        }
        while !mock.server.postbackSends.isStopped {}
        transport.release()
        #expect(stopped.wait(timeout: .now() + .seconds(10)) == .success)

        #expect(transport.count == 1)
        let answer = try JSONParser.parse(Array(send.text.utf8))
        let sent = try #require(answer["sent"]?.arrayValue)
        #expect(sent.map { $0["window"] } == ["p0", "p1", "p2"])
        #expect(sent.map { $0["status"] } == [200, 0, 0])
        #expect(sent.map { $0["not_sent"] } == [nil, true, true])
        let entries = try mock.server.journal.query(JournalFilter(endpoint: .postback)).entries.map {
            try JSONParser.parse(Array($0.line.dropLast()))
        }
        #expect(entries.map { $0["sent"]?["not_sent"] } == [nil, true, true])
        #expect(entries.map { $0["response"]?["status"] } == [200, 0, 0])
    }
}
