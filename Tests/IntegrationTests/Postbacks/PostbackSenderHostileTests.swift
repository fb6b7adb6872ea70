import Foundation
import SKANDomain
import SystemPOSIX
import Testing

@testable import SKANMock

/// Round 6 of hostile input against the postback sender (issue 47 items 1, 2, 6 and 10), over
/// real sockets: what a caller can make it write, and where it can make it go.
@Suite struct PostbackSenderHostileTests {
    private func device(_ mock: TestSKANMock, _ id: String, tenant: String = "") throws {
        let answer = try mock.get(
            tenant + "/api/v2/conversion_value",
            [
                ("a", "KEY"), ("i", "com.example.app"), ("p", "iOS"), ("idfv", id), ("n", "__SESSION__"),
                ("skan_first_call_to_skadnetwork_timestamp", String(TestSKANMock.start))
            ])
        #expect(answer.status == 200)
        mock.clock.advance(seconds: 3 * 86_400)
    }

    private func send(_ mock: TestSKANMock, _ url: String, tenant: String = "", device: String = "QA-1") throws
        -> CurlClient.Response
    {
        let body = JSONWriter.serialize(.object([JSONMember("url", .string(url))]))
        return try mock.client.request(
            "POST", mock.url(tenant + "/__admin/devices/\(device)/postbacks/send"), body: body)
    }

    /// 47.1: a URL that would end the request line and smuggle a header and a second request is
    /// refused with a 400, and the receiver it names gets nothing at all.
    @Test func aURLCannotInjectHeadersOrRequests() throws {
        let mock = try TestSKANMock()
        try device(mock, "QA-1")
        let receiver = try #require(CapturingReceiver())
        let injected = [
            receiver.url + "/x HTTP/1.1\r\nX-Injected: 1\r\n\r\nDELETE /__admin/tenants/victim",
            receiver.url + "/x\r\nAuthorization: Bearer stolen",
            receiver.url + "/x\nX-Injected: 1",
            receiver.url + "/x%0d%0aX: 1\u{0}",
            "http://127.0.0.1:\(receiver.port)\r\nX: 1/x"
        ]
        for url in injected {
            let answer = try send(mock, url)
            #expect(answer.status == 400, "\(url.debugDescription): \(answer.text)")
            #expect(answer.text.contains("nothing was sent") || answer.text.contains("url has"), "\(answer.text)")
        }
        // A percent-encoded CR LF stays encoded on the wire: one request, one Host, no X header.
        let encoded = try send(mock, receiver.url + "/x%0d%0aX-Injected:%201")
        #expect(encoded.status == 200, "\(encoded.text)")
        let requests = receiver.requests
        #expect(!requests.isEmpty && requests.allSatisfy { $0.hasPrefix("POST /x%0d%0aX-Injected:%201 HTTP/1.1\r\n") })
        #expect(requests.allSatisfy { !$0.contains("\r\nX-Injected") && !$0.contains("DELETE") })
    }

    /// 47.2: the sender never reaches this server's admin API (or any path but a receiver's),
    /// whichever spelling of loopback the URL uses; a receiver path, under a tenant too, still works.
    @Test func theSenderCannotReachThisServersOwnAdminAPI() throws {
        let mock = try TestSKANMock()
        try device(mock, "QA-1", tenant: "/t/a")
        try device(mock, "B-1", tenant: "/t/b")
        let port = mock.server.port
        let spellings = ["127.0.0.1", "127.1", "2130706433", "0x7f000001", "0177.0.0.1", "0", "localhost", "LOCALHOST."]
        for host in spellings {
            for path in ["/t/b/__admin/reset", "/__admin/reset?scope=all", "/t/b/api/v2/conversion_value"] {
                let answer = try send(mock, "http://\(host):\(port)\(path)", tenant: "/t/a")
                #expect(answer.status == 400, "\(host)\(path): \(answer.text)")
                #expect(answer.text.contains("reaches this server itself"), "\(answer.text)")
            }
        }
        let v6 = try send(mock, "http://[::1]:\(port)/t/b/__admin/reset", tenant: "/t/a")
        #expect(v6.status == 400 && v6.text.contains("reaches this server itself"), "\(v6.text)")
        // Tenant b kept its device: nothing reached its reset.
        #expect(try mock.admin("/t/b/__admin/devices/B-1")["device"] != nil)
        // The receiver path of another tenant is allowed, and receives.
        let allowed = try send(
            mock, "http://127.1:\(port)/t/b/.well-known/skadnetwork/report-attribution/?device=B-1", tenant: "/t/a")
        #expect(allowed.status == 200, "\(allowed.text)")
        #expect(try JSONValue.parse(allowed)["sent"]?.arrayValue?.first?["status"] == 200, "\(allowed.text)")
        #expect(try mock.admin("/t/b/__admin/postbacks/received")["postbacks"]?.arrayValue?.isEmpty == false)
    }

    /// 47.10: the Host header of an IPv6 URL has its brackets.
    @Test func anIPv6HostHeaderHasBrackets() throws {
        guard let receiver = CapturingReceiver(host: "::1") else { return }  // no IPv6 loopback here
        let mock = try TestSKANMock()
        try device(mock, "QA-1")
        let answer = try send(mock, receiver.url + "/r")
        #expect(answer.status == 200, "\(answer.text)")
        #expect(
            receiver.requests.first?.contains("\r\nHost: [::1]:\(receiver.port)\r\n") == true, "\(receiver.requests)")
    }

    /// 47.6: sends past the sender's bound are refused with a 503 that says why, instead of
    /// queuing without end; the sends in progress are answered when their receiver gives up.
    @Test func sendsPastTheBoundAreRefused() throws {
        let mock = try TestSKANMock()
        try device(mock, "QA-1")
        let silent = try #require(CapturingReceiver(silent: true, seconds: 20))
        let queue = mock.server.postbackSends
        let total = queue.workers + queue.capacity
        // One more than it holds, at once: the receiver keeps every post it takes for 20 s, so the
        // first answer is the one refused, whichever of them came last.
        let first = Mutex<CurlClient.Response?>(nil)
        let answered = DispatchSemaphore(value: 0)
        let sendURL = mock.url("/__admin/devices/QA-1/postbacks/send")
        let body = JSONWriter.serialize(.object([JSONMember("url", .string(silent.url + "/r"))]))
        for _ in 0...total {
            Thread.detachNewThread {
                guard let response = try? CurlClient().request("POST", sendURL, body: body) else { return }
                first.withLock { $0 = $0 ?? response }
                answered.signal()
            }
        }
        #expect(answered.wait(timeout: .now() + 15) == .success)
        let refused = try #require(first.withLock { $0 })
        #expect(refused.status == 503, "\(refused.text)")
        #expect(refused.text.contains("the postback sender is busy"), "\(refused.text)")
        #expect(refused.headers.contains { $0.name.lowercased() == "retry-after" })
        #expect(queue.waiting == queue.capacity)
    }
}
