import Foundation
import SKANDomain
import SystemPOSIX
import Testing

/// Answers the server gives before an endpoint sees the request (issue 21): a POST whose body never
/// completes (Linux URLSession re-sends a POST without its body after a dropped connection), a
/// header section over the limit, a malformed head. On a path that names an endpoint each is
/// journaled with a finding, so the QA engineer sees the request that did not make it.
@Suite("Server refusals in the journal")
struct RefusalJournalTests {
    @Test func aBodyThatNeverCompletesIsJournaledAs408() throws {
        let mock = try TestSKANMock { $0.limits.bodyTimeoutSeconds = 0.5 }
        let connection = try RawConnection(port: mock.server.port)
        connection.send(
            "POST /api/v1/evt?a=K&p=iOS&i=com.x&idfv=HALF&n=purchase HTTP/1.1\r\nHost: x\r\n"
                + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 120\r\n\r\nskan_conversion_value="
        )
        let (answer, _) = connection.readToEnd()
        #expect(answer.hasPrefix("HTTP/1.1 408"))
        let entry = try #require(try mock.journal("device=HALF").first)
        #expect(entry["endpoint"] == "event" && entry["method"] == "POST" && entry["path"] == "/api/v1/evt")
        #expect(entry["response"]?["status"] == 408)
        #expect(entry["issues"]?[0]?["code"] == "request_timeout")
        #expect(
            entry["issues"]?[0]?["message"]?.stringValue?.contains("its head arrived but not all of its body") == true)
    }

    /// A chunked body that breaks its framing used to be answered 400 (or 413) but not journaled:
    /// the parser had moved past the head it needed to name the request.
    @Test func aBadChunkedBodyIsJournaled() throws {
        let mock = try TestSKANMock()
        let connection = try RawConnection(port: mock.server.port)
        connection.send(
            "POST /api/v1/evt?a=K&p=iOS&i=com.x&idfv=CHUNKY&n=purchase HTTP/1.1\r\nHost: x\r\n"
                + "Content-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "5\r\nn=buy\r\nzz\r\n")
        #expect(connection.readToEnd().text.hasPrefix("HTTP/1.1 400"))
        let entry = try #require(
            try mock.admin("/__admin/requests/wait?device=CHUNKY&count=1&timeout_ms=5000")["requests"]?[0])
        #expect(entry["endpoint"] == "event" && entry["method"] == "POST")
        #expect(entry["response"]?["status"] == 400)
        #expect(entry["issues"]?[0]?["code"] == "malformed_request")
    }

    /// A POST the client abandons halfway (it closes the connection in the middle of the body)
    /// used to leave no entry: it is journaled with `request_abandoned` and status 0, nothing
    /// having been answered.
    @Test func aRequestTheClientAbandonsIsJournaled() throws {
        let mock = try TestSKANMock()
        let connection = try RawConnection(port: mock.server.port)
        connection.send(
            "POST /api/v1/evt?a=K&p=iOS&i=com.x&idfv=GONE&n=purchase HTTP/1.1\r\nHost: x\r\n"
                + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\nskan_conv")
        System.shutdownWrite(connection.fd)
        let (answer, closed) = connection.readToEnd()
        #expect(answer.isEmpty && closed)
        let entry = try #require(
            try mock.admin("/__admin/requests/wait?device=GONE&count=1&timeout_ms=5000")["requests"]?[0])
        #expect(entry["endpoint"] == "event")
        #expect(entry["response"]?["status"] == 0)
        #expect(entry["issues"]?[0]?["code"] == "request_abandoned")
        #expect(
            entry["issues"]?[0]?["message"]?.stringValue
                == "the client closed the connection before its body was complete, so /api/v1/evt never saw the request and nothing was answered"
        )
        // A client that sends whole requests and then closes leaves nothing behind.
        let whole = try RawConnection(port: mock.server.port)
        whole.send("GET /api/v1/evt?a=K&p=iOS&i=com.x&idfv=WHOLE&n=e HTTP/1.1\r\nHost: x\r\n\r\n")
        System.shutdownWrite(whole.fd)
        #expect(whole.readToEnd().text.hasPrefix("HTTP/1.1 200"))
        #expect(try mock.journal("device=WHOLE").count == 1)
    }

    @Test func oversizedAndMalformedRequestsForAnEndpointAreJournaled() throws {
        let mock = try TestSKANMock()
        let big = try RawConnection(port: mock.server.port)
        big.send(
            "GET /api/v2/conversion_value?idfv=BIG HTTP/1.1\r\nHost: x\r\nX-Filler: "
                + String(repeating: "y", count: 20_000) + "\r\n\r\n")
        #expect(big.readToEnd().text.hasPrefix("HTTP/1.1 431"))
        let bad = try RawConnection(port: mock.server.port)
        bad.send("GET /api/v2/conversion_value?idfv=BAD HTTP/1.1\r\nHost x\r\n\r\n")
        #expect(bad.readToEnd().text.hasPrefix("HTTP/1.1 400"))
        // A path that names no endpoint is no SKAN request: nothing to journal.
        let other = try RawConnection(port: mock.server.port)
        other.send("GET /favicon.ico HTTP/1.1\r\nHost x\r\n\r\n")
        #expect(other.readToEnd().text.hasPrefix("HTTP/1.1 400"))

        #expect(try mock.journal("device=BIG").first?["issues"]?[0]?["code"] == "request_too_large")
        #expect(try mock.journal("device=BIG").first?["response"]?["status"] == 431)
        #expect(try mock.journal("device=BAD").first?["issues"]?[0]?["code"] == "malformed_request")
        #expect(try mock.admin("/__admin/requests/count")["count"] == 2)
    }

    /// A 1 MiB form field keeps 4 KiB in the journal, with a finding that says its length, and the
    /// journal's bytes are counted in health (issue 22).
    @Test func aHugeFormFieldIsKeptCut() throws {
        let mock = try TestSKANMock()
        let form = "a=K&p=iOS&i=com.x&idfv=HUGE&n=purchase&receipt=" + String(repeating: "r", count: 1_000_000)
        let answer = try mock.client.request(
            "POST", mock.url("/api/v1/evt"), body: Array(form.utf8),
            headers: ["Content-Type: application/x-www-form-urlencoded"])
        #expect(answer.status == 200)
        let entry = try #require(try mock.journal("device=HUGE").first)
        #expect(entry["params"]?["receipt"]?.stringValue?.count == 4096)
        #expect(entry["issues"]?[0]?["code"] == "value_truncated")
        let health = try mock.admin("/__admin/health")
        #expect((health["journal"]?["bytes"]?.intValue ?? .max) < 16_384)
        #expect(health["journal"]?["capacity_bytes"] == .int(64 << 20))
    }
}
