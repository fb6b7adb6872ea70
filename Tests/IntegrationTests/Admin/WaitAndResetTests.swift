import Foundation
import SKANDomain
import Testing

/// Runs a blocking libcurl call on a thread of its own: not on Swift's cooperative pool nor on
/// Dispatch's global queues, whose few threads (one per core) the server itself needs.
private func offPool(_ url: String) async throws -> CurlClient.Response {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread {
            continuation.resume(with: Result { try CurlClient().request("GET", url, timeoutSeconds: 30) })
        }
    }
}

@Suite("Waiting for requests, marks and scoped resets over real sockets")
struct WaitAndResetTests {
    private func session(_ device: String, _ event: String = "__SESSION__") -> [(String, String)] {
        [("a", "k"), ("i", "com.x"), ("p", "iOS"), ("idfv", device), ("n", event), ("conversion_value", "0")]
    }

    @Test func answersAsSoonAsTheRequestsArriveWhileServingOthers() async throws {
        let mock = try TestSKANMock()
        let port = mock.server.port
        // Answered before its 20 s ran out: `timed_out` is false (no timed assertion: the machine is shared).
        // Whether the wait arrives before the requests or after, its answer is the same: the
        // waiting itself is shown in process on a timer moved by hand (`JournalWaitTests`).
        async let waited = offPool("http://127.0.0.1:\(port)/__admin/requests/wait?device=W&count=2&timeout_ms=20000")
        // The waiter holds no thread: the server keeps answering, and another waiter times out meanwhile.
        let other = try CurlClient().get(mock.url("/__admin/requests/wait?device=nobody&timeout_ms=100"))
        #expect(try JSONValue.parse(other)["timed_out"] == true)
        _ = try mock.get("/api/v1/conversion_value", session("W"))
        _ = try mock.get("/api/v1/conversion_value", session("X"))
        _ = try mock.get("/api/v1/conversion_value", session("W"))
        let response = try await waited
        #expect(response.status == 200)
        let body = try JSONValue.parse(response)
        #expect(body.objectValue?.map(\.key) == ["requests", "total", "dropped", "timed_out"])
        #expect(body["timed_out"] == false)
        #expect(body["total"] == 2)
        #expect(body["requests"]?.arrayValue?.compactMap { $0["device"]?.stringValue } == ["W", "W"])
    }

    @Test func timesOutWithWhatThereIs() throws {
        let mock = try TestSKANMock()
        _ = try mock.get("/api/v1/conversion_value", session("T"))
        let response = try mock.client.get(mock.url("/__admin/requests/wait?device=T&count=3&timeout_ms=150"))
        #expect(response.status == 200)
        let body = try JSONValue.parse(response)
        #expect(body["timed_out"] == true)
        #expect(body["total"] == 1)
    }

    @Test func manyWaitersAtOnce() async throws {
        let mock = try TestSKANMock()
        let port = mock.server.port
        let waiters = (0..<20).map { n in
            Task {
                try await offPool("http://127.0.0.1:\(port)/__admin/requests/wait?device=M\(n % 4)&timeout_ms=20000")
            }
        }
        for n in 0..<4 { _ = try mock.get("/api/v1/conversion_value", session("M\(n)")) }
        for waiter in waiters {
            let body = try JSONValue.parse(try await waiter.value)
            #expect(body["timed_out"] == false)
            #expect(body["total"] == 1)
        }
    }

    @Test func rejectsBadWaits() throws {
        let mock = try TestSKANMock()
        for query in ["count=0", "count=x", "timeout_ms=-1", "timeout_ms=1.5", "devcie=A", "limit=1"] {
            let response = try mock.client.get(mock.url("/__admin/requests/wait?" + query))
            #expect(response.status == 400, "\(query)")
            #expect(try JSONValue.parse(response)["reason"]?.stringValue?.isEmpty == false)
        }
    }

    @Test func marksWhereAStepBegins() throws {
        let mock = try TestSKANMock()
        #expect(try mock.admin("/__admin/requests/mark") == ["last_id": 0])
        _ = try mock.get("/api/v1/conversion_value", session("S"))
        let mark = try #require(try mock.admin("/__admin/requests/mark")["last_id"]?.intValue)
        #expect(mark == 1)
        _ = try mock.get("/api/v1/conversion_value", session("S", "buy"))
        let body = try mock.admin("/__admin/requests/wait?since_id=\(mark)&count=1&timeout_ms=1000")
        #expect(body["timed_out"] == false)
        #expect(body["requests"]?.arrayValue?.map { $0["event"] } == ["buy"])
    }

    @Test func resetSaysWhatItResetsAndScopeAllRestoresStartUp() throws {
        let mock = try TestSKANMock { $0.clockOffsetSeconds = 60 }
        let plain = try mock.client.request("POST", mock.url("/__admin/reset"), body: [])
        #expect(try JSONValue.parse(plain) == ["status": "ok", "reset": ["journal", "devices", "faults"]])
        let revenue = try [UInt8](
            Data(
                contentsOf: URL(fileURLWithPath: #filePath)
                    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                    .deletingLastPathComponent().appendingPathComponent("config/revenue.json")))
        #expect(try mock.client.request("PUT", mock.url("/__admin/model"), body: revenue).status == 200)
        #expect(
            try mock.client.request("PUT", mock.url("/__admin/clock"), body: Array(#"{"advance_s": 1000}"#.utf8)).status
                == 200)
        _ = try mock.client.request("POST", mock.url("/__admin/reset"), body: [])
        #expect(try mock.admin("/__admin/model")["name"] != "singular-testing")
        let all = try mock.client.request("POST", mock.url("/__admin/reset?scope=all"), body: [])
        #expect(
            try JSONValue.parse(all) == ["status": "ok", "reset": ["journal", "devices", "faults", "model", "clock"]])
        #expect(try mock.admin("/__admin/model")["name"] == "singular-testing")
        #expect(try mock.admin("/__admin/clock")["offset_s"] == 60)
        let bad = try mock.client.request("POST", mock.url("/__admin/reset?scope=everything"), body: [])
        #expect(bad.status == 400)
        #expect(try JSONValue.parse(bad)["reason"]?.stringValue?.contains("scope") == true)
    }
}
