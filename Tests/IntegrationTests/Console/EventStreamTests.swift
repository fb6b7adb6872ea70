import Dispatch
import Foundation
import SKANDomain
import SystemPOSIX
import Testing

/// `/__admin/events` over real sockets, without a browser: live entries, filters, resume with
/// Last-Event-ID, reset, the token in the query, and a stalled reader that must not slow anyone.
@Suite("Event stream over real sockets")
struct EventStreamTests {
    private func skan4(_ mock: TestSKANMock, _ device: String) throws {
        let first = String(TestSKANMock.start - 60)
        #expect(
            try mock.get(
                "/api/v2/conversion_value",
                [
                    ("a", "K"), ("idfv", device), ("n", "__SESSION__"),
                    ("skan_first_call_to_skadnetwork_timestamp", first)
                ]
            ).status == 200)
    }

    private func open(_ mock: TestSKANMock, _ query: String, lastEventId: String? = nil) throws -> (
        RawConnection, String
    ) {
        let connection = try RawConnection(port: mock.server.port)
        connection.send(
            "GET /__admin/events\(query) HTTP/1.1\r\nHost: localhost\r\n"
                + (lastEventId.map { "Last-Event-ID: \($0)\r\n" } ?? "") + "\r\n")
        return (connection, connection.read(until: "retry: 1000\n\n"))
    }

    private func ids(_ text: String) -> [String] {
        text.split(separator: "\n").filter { $0.hasPrefix("id: ") }.map { String($0.dropFirst(4)) }
    }

    @Test func streamsNewEntriesFilteredResumesAndResets() throws {
        let mock = try TestSKANMock()
        try skan4(mock, "OLD")
        let (stream, head) = try open(mock, "?device=S1")
        #expect(head.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(head.contains("Content-Type: text/event-stream; charset=utf-8\r\n"))
        #expect(head.contains("Cache-Control: no-cache\r\n") && head.contains("X-Accel-Buffering: no\r\n"))
        try skan4(mock, "S2")
        try skan4(mock, "S1")
        let first = stream.read(
            until: "\n\n", after: String(head.split(separator: "retry: 1000\n\n", maxSplits: 1).dropFirst().first ?? "")
        )
        let firstIds = ids(first)
        #expect(firstIds.count == 1)
        let boot = try #require(firstIds.first?.split(separator: ":").first.map(String.init))
        #expect(firstIds == ["\(boot):3"])
        #expect(first.contains("event: entry\ndata: {\"id\":3,"))
        #expect(first.contains("\"device\":\"S1\""))

        // Missed while away, resumed with Last-Event-ID (which wins over since_id), nothing twice.
        try skan4(mock, "S1")
        try skan4(mock, "S1")
        let (resumed, resumedHead) = try open(mock, "?device=S1&since_id=0", lastEventId: "\(boot):3")
        let missed = resumed.read(until: "id: \(boot):5", after: resumedHead)
        #expect(ids(missed) == ["\(boot):4", "\(boot):5"])
        #expect(!missed.contains("event: reset"))

        // Clearing the journal tells open streams at once; ids keep increasing after.
        #expect(try mock.client.request("DELETE", mock.url("/__admin/requests")).status == 200)
        let reset = resumed.read(until: "event: reset\ndata: {}\n\n")
        #expect(reset.contains("event: reset\ndata: {}\n\n"))
        try skan4(mock, "S1")
        #expect(resumed.read(until: "id: \(boot):6").contains("id: \(boot):6"))

        // A Last-Event-ID from another boot starts with a reset.
        let (other, otherHead) = try open(mock, "", lastEventId: "elsewhere:99")
        #expect(other.read(until: "event: reset", after: otherHead).contains("event: reset\ndata: {}"))
        // since_id without Last-Event-ID sends the kept entries after it.
        let (since, sinceHead) = try open(mock, "?since_id=0")
        #expect(ids(since.read(until: "id: \(boot):6", after: sinceHead)) == ["\(boot):6"])
    }

    @Test func unknownFiltersAre400AndTheTokenGoesInTheQuery() throws {
        let mock = try TestSKANMock(configure: { $0.adminToken = "T0KEN" })
        let auth = ["Authorization: Bearer T0KEN"]
        #expect(try mock.client.get(mock.url("/__admin/events?devcie=X"), headers: auth).status == 400)
        #expect(try mock.client.get(mock.url("/__admin/events?limit=3"), headers: auth).status == 400)
        #expect(try mock.client.get(mock.url("/__admin/events")).status == 401)
        #expect(try mock.client.get(mock.url("/__admin/requests?token=T0KEN")).status == 401)
        let (stream, head) = try open(mock, "?token=T0KEN")
        #expect(head.hasPrefix("HTTP/1.1 200 OK"))
        try skan4(mock, "TOKEN")
        #expect(stream.read(until: "\"device\":\"TOKEN\"").contains("event: entry"))
    }

    /// A reader that stops reading is cut off; 20,000 requests meanwhile are all answered.
    @Test func aStalledReaderNeverSlowsRequestHandling() throws {
        let mock = try TestSKANMock(configure: { $0.journalSize = 25_000 })
        let stalled = try RawConnection(port: mock.server.port)
        stalled.setSmallReceiveBuffer()
        stalled.send("GET /__admin/events HTTP/1.1\r\nHost: localhost\r\n\r\n")
        // Its first event shows it reading the journal; then it reads no more.
        _ = stalled.read(until: "retry: 1000\n\n")
        try skan4(mock, "FIRST")
        #expect(stalled.read(until: "\"device\":\"FIRST\"").contains("event: entry"))
        #expect(mock.server.journal.readerCount == 1)
        let answered = Mutex(0)
        let url = mock.url("/api/v1/conversion_value?a=K&n=e&conversion_value=0&idfv=")
        DispatchQueue.concurrentPerform(iterations: 4) { client in
            let curl = CurlClient()
            for n in 0..<5_000 {
                if let response = try? curl.get(url + "L\(client)-\(n % 50)"), response.status == 200 {
                    answered.withLock { $0 += 1 }
                }
            }
        }
        #expect(answered.withLock { $0 } == 20_000)
        // Cut off during the flood. (Its stream's end would say so as an event, but only after the
        // megabytes sent before the cut have crept through its small window: minutes.)
        for _ in 0..<300 where mock.server.journal.readerCount > 0 { usleep(10_000) }
        #expect(mock.server.journal.readerCount == 0)
        #expect(try mock.client.get(mock.url("/__admin/health")).status == 200)
    }
}
