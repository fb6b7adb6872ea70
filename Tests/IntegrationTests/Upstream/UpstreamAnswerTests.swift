#if SKAN_MOCK_UPSTREAM
    import Foundation
    import HTTPCore
    import SKANDomain
    import SKANMock
    import SystemPOSIX
    import Testing

    /// What skan-mock does with an upstream answer it must not pass on, and with a request that
    /// would loop (issue 30.9, 30.12, 30.13, 30.14): the upstream is a plain HTTP server of the
    /// test's own that answers what each case needs.
    @Suite("Upstream answers that cannot be passed on")
    struct UpstreamAnswerTests {
        /// An upstream whose `/api/v2/conversion_value` answers `status` with `body`, and that
        /// counts what reached it.
        final class Upstream {
            let server: TestHTTPServer
            let hits = Mutex<[String]>([])
            let queries = Mutex<[String]>([])

            init(status: Int, body: [UInt8]) throws {
                var router = HTTPRouter()
                let hits = self.hits
                let queries = self.queries
                router.on(.get, "/api/v2/conversion_value") { request, _, writer in
                    hits.withLock { $0.append(request.headers["Via"] ?? "") }
                    queries.withLock { $0.append(String(request.query)) }
                    writer.send(HTTPResponse(status: HTTPStatus(code: status), body: body))
                }
                server = try TestHTTPServer(responder: router)
            }

            var url: String { "http://127.0.0.1:\(server.port)" }
        }

        private let session: [(String, String)] = [
            ("a", "KEY"), ("i", "com.example.app"), ("p", "iOS"), ("idfv", "UP-1"), ("n", "__SESSION__"),
            ("skan_current_conversion_value", "0"),
            ("skan_first_call_to_skadnetwork_timestamp", String(TestSKANMock.start - 60))
        ]

        private func mock(_ upstream: Upstream, mode: UpstreamOptions.Mode) throws -> TestSKANMock {
            let options = try UpstreamOptions(baseURL: upstream.url, mode: mode, timeoutSeconds: 5)
            return try TestSKANMock(configure: { $0.upstream = options })
        }

        private func entry(_ mock: TestSKANMock) throws -> JSONValue {
            let waited = try mock.admin("/__admin/requests/wait?device=UP-1&count=1&timeout_ms=20000")
            return try #require(waited["requests"]?[0])
        }

        @Test func anAnswerOverTheLimitIsA502NeverACutBody() throws {
            let upstream = try Upstream(status: 200, body: [UInt8](repeating: 0x61, count: 200 * 1024))
            let mock = try mock(upstream, mode: .proxy)
            let answer = try mock.get("/api/v2/conversion_value", session)
            #expect(answer.status == 502)
            #expect(answer.text.contains("over 64 KiB"))
            let entry = try entry(mock)
            #expect(entry["upstream"]?["error"] == "unusable")
            #expect(entry["issues"]?.arrayValue?.contains { $0["code"] == "upstream_unusable" } == true)
        }

        @Test func aStatusOutsideTheRuleIsA502NamingIt() throws {
            let upstream = try Upstream(status: 999, body: Array("{}".utf8))
            let mock = try mock(upstream, mode: .proxy)
            let answer = try mock.get("/api/v2/conversion_value", session)
            #expect(answer.status == 502)
            #expect(answer.text.contains("status 999 is not an HTTP status from 200 to 599"))
            #expect(try entry(mock)["upstream"]?["error"] == "unusable")
        }

        @Test func aBodyThatIsNotUTF8IsJournaledByteForByte() throws {
            let bytes: [UInt8] = [0x7B, 0xFF, 0xFE, 0x00, 0x7D]
            let upstream = try Upstream(status: 200, body: bytes)
            let mock = try mock(upstream, mode: .shadow)
            #expect(try mock.get("/api/v2/conversion_value", session).status == 200)
            let recorded = try #require(try entry(mock)["upstream"]?["body_base64"]?.stringValue)
            #expect(Base64.decode(recorded) == bytes)
        }

        /// Forwarded requests carry `Via: 1.1 skan-mock`; one that arrives with it is not forwarded
        /// again: a proxy answers 502 saying why, and the upstream never sees it.
        @Test func aRequestThatCameThroughASkanMockIsNotForwardedAgain() throws {
            let upstream = try Upstream(status: 200, body: Array(#"{"status":"ok","conversion_value":3}"#.utf8))
            let mock = try mock(upstream, mode: .proxy)
            #expect(try mock.get("/api/v2/conversion_value", session).status == 200)
            #expect(upstream.hits.withLock { $0 } == ["1.1 skan-mock"])
            _ = try mock.admin("/__admin/requests/wait?device=UP-1&count=1&timeout_ms=20000")
            let looped = try mock.client.get(
                mock.url("/api/v2/conversion_value?" + TestSKANMock.query(session)),
                headers: ["Via: 1.1 proxy.example, 1.1 skan-mock"])
            #expect(looped.status == 502)
            #expect(looped.text.contains("already came through a skan-mock"))
            #expect(upstream.hits.withLock { $0.count } == 1)
            let entries = try mock.admin("/__admin/requests/wait?device=UP-1&count=2&timeout_ms=20000")
            #expect(entries["requests"]?[1]?["upstream"]?["error"] == "loop")
        }

        /// A `#` in the query (which a raw client can send) reaches the upstream as `%23`, so it
        /// reads the same parameters as skan-mock did, not a query cut at the `#` (issue 30.15).
        @Test func aHashInTheQueryIsForwardedAsPercent23() throws {
            let upstream = try Upstream(status: 200, body: Array(#"{"status":"ok","conversion_value":1}"#.utf8))
            let mock = try mock(upstream, mode: .shadow)
            let target = "/api/v2/conversion_value?" + TestSKANMock.query(session) + "&n2=a#b&tail=1"
            // libcurl drops a fragment; a raw client sends the `#` as written.
            let client = try RawConnection(port: mock.server.port)
            client.send("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            #expect(client.readToEnd().0.hasPrefix("HTTP/1.1 200 OK"))
            _ = try entry(mock)
            let forwarded = try #require(upstream.queries.withLock { $0.first })
            #expect(forwarded.hasSuffix("&n2=a%23b&tail=1"))
        }

        /// Shadow mode journals in the order requests arrived, whatever order the upstream answers
        /// in (issue 30.6): the first request's answer comes last, and still has the first id.
        @Test func shadowJournalsInArrivalOrder() throws {
            var router = HTTPRouter()
            router.on(.get, "/api/v2/conversion_value") { request, _, writer in
                let slow = request.query.contains("n=first")
                let answer = HTTPResponse(body: Array(#"{"status":"ok","conversion_value":1}"#.utf8))
                if slow {
                    DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(400)) { writer.send(answer) }
                } else {
                    writer.send(answer)
                }
            }
            let upstream = try TestHTTPServer(responder: router)
            let options = try UpstreamOptions(
                baseURL: "http://127.0.0.1:\(upstream.port)", mode: .shadow, timeoutSeconds: 5)
            let mock = try TestSKANMock(configure: { $0.upstream = options })
            let events = ["first", "second", "third"]
            for event in events {
                let parameters = session.map { $0.0 == "n" ? ("n", event) : $0 }
                #expect(try mock.get("/api/v2/conversion_value", parameters).status == 200)
            }
            let waited = try mock.admin("/__admin/requests/wait?device=UP-1&count=3&timeout_ms=20000")
            let entries = waited["requests"]?.arrayValue ?? []
            #expect(entries.compactMap { $0["event"]?.stringValue } == events)
            let ids = entries.compactMap { $0["id"]?.intValue }
            #expect(ids == ids.sorted())
        }

        /// Under a flood, the time a request waits for a free connection counts against its
        /// timeout (issue 30.16): one connection, three requests, a silent upstream with a 1-s
        /// timeout. Each used to wait for the one before and then get a whole second of its own
        /// (3 s in all); now the three share the one second, and one whose time ran out waiting is
        /// journaled as not sent.
        @Test func waitingForAConnectionCountsAgainstTheTimeout() throws {
            let silent = try System.listen(host: "127.0.0.1", port: 0, backlog: 8)
            defer { System.close(silent) }
            var options = try UpstreamOptions(
                baseURL: "http://127.0.0.1:\(System.localPort(silent))", mode: .shadow, timeoutSeconds: 1)
            options.maxInFlight = 1
            let mock = try TestSKANMock(configure: { $0.upstream = options })
            for _ in 0..<3 { #expect(try mock.get("/api/v2/conversion_value", session).status == 200) }
            let waited = try mock.admin("/__admin/requests/wait?device=UP-1&count=3&timeout_ms=20000")
            let entries = waited["requests"]?.arrayValue ?? []
            #expect(entries.count == 3)
            for entry in entries {
                let error = entry["upstream"]?["error"]?.stringValue
                #expect(error == "timeout" || error == "not_sent", "\(entry["upstream"] ?? .null)")
            }
            let upstreamMicros = entries.compactMap { $0["upstream"]?["duration_us"]?.intValue }.reduce(0, +)
            #expect(upstreamMicros < 2_000_000, "the three exchanges took \(upstreamMicros) us")
        }
    }
#endif
