#if SKAN_MOCK_UPSTREAM
    import Foundation
    import HTTPCore
    import SKANDomain
    import SKANMock
    import SystemPOSIX
    import Testing

    /// `--upstream` end to end, with no internet: the upstream is a second skan-mock with another
    /// model (over plain HTTP, and over HTTPS with its local CA as `--upstream-ca`), a port nothing
    /// listens on, and a socket that accepts and never answers.
    @Suite("Upstream: shadow and proxy")
    struct UpstreamTests {
        /// A SKAN 4 session of Singular's snippet for `device`, in p0.
        private func session(_ device: String) -> [(String, String)] {
            [
                ("a", "KEY"), ("i", "com.example.app"), ("p", "iOS"), ("idfv", device), ("n", "__SESSION__"),
                ("skan_current_conversion_value", "0"),
                ("skan_first_call_to_skadnetwork_timestamp", String(TestSKANMock.start - 60))
            ]
        }

        private func mock(
            upstream url: String, mode: UpstreamOptions.Mode = .shadow, timeout: Double = 5, ca: String? = nil
        ) throws -> TestSKANMock {
            let options = try UpstreamOptions(baseURL: url, mode: mode, timeoutSeconds: timeout, caFile: ca)
            return try TestSKANMock(configure: { $0.upstream = options })
        }

        /// Waits (no sleeps) for `count` entries of `device` and returns them.
        private func entries(_ mock: TestSKANMock, device: String, count: Int = 1) throws -> [JSONValue] {
            let waited = try mock.admin("/__admin/requests/wait?device=\(device)&count=\(count)&timeout_ms=20000")
            #expect(waited["timed_out"] == false)
            return waited["requests"]?.arrayValue ?? []
        }

        @Test func equalAnswersGiveNoFindingAndTheUpstreamIsJournaled() throws {
            let production = try TestSKANMock()
            let mock = try mock(upstream: "http://127.0.0.1:\(production.server.port)")
            let answer = try mock.get("/api/v2/conversion_value", session("SAME"))
            #expect(
                answer.text
                    == #"{"status":"ok","conversion_value":1,"skan_updated_coarse_value":0,"skan_updated_lock_window_value":false}"#
            )
            let entry = try #require(try entries(mock, device: "SAME").first)
            #expect(entry["issues"]?.arrayValue?.isEmpty == true)
            #expect(entry["upstream"]?["status"] == 200)
            #expect(entry["upstream"]?["body"]?.stringValue == answer.text)
            #expect((entry["upstream"]?["duration_us"]?.intValue ?? -1) >= 0)
            // The upstream got the request as the client sent it, on Singular's path.
            let forwarded = try #require(try production.journal("device=SAME").first)
            #expect(forwarded["path"] == "/api/v2/conversion_value")
            #expect(
                forwarded["params"]?["skan_first_call_to_skadnetwork_timestamp"]
                    == .string(String(TestSKANMock.start - 60)))
            #expect(try mock.admin("/__admin/coverage")["entries"]?[0]?["upstream"] == ["compared": 1, "matched": 1])
        }

        /// Many requests in a row reuse the client's handles and connections: every one compared.
        @Test func manyRequestsAreAllCompared() throws {
            let production = try TestSKANMock()
            let mock = try mock(upstream: "http://127.0.0.1:\(production.server.port)")
            for n in 1...80 {
                #expect(
                    try mock.get("/api/v1/conversion_value", [("idfv", "MANY"), ("conversion_value", String(n % 3))])
                        .status == 200)
            }
            let entries = try entries(mock, device: "MANY", count: 80)
            #expect(entries.count == 80)
            #expect(entries.allSatisfy { $0["upstream"]?["status"] == 200 })
            #expect(try production.admin("/__admin/requests/count?device=MANY")["count"] == 80)
        }

        @Test func aDifferentAnswerIsAFindingThatSaysBothValues() throws {
            let production = try TestSKANMock(configure: {
                $0.modelPath =
                    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
                        "config/revenue.json"
                    ).path
            })
            let mock = try mock(upstream: "http://127.0.0.1:\(production.server.port)")
            #expect(try mock.get("/api/v2/conversion_value", session("DIFF")).status == 200)
            let entry = try #require(try entries(mock, device: "DIFF").first)
            let finding = try #require(entry["issues"]?.arrayValue?.first { $0["code"] == "differs_from_upstream" })
            #expect(
                finding["message"]?.stringValue
                    == "the model answered ok, value 1, coarse 0, lock false where the upstream answered ok, value 0, coarse 0, lock false"
            )
            #expect(try mock.admin("/__admin/requests/count?has_issues=true")["count"] == 1)
            // The coverage counts the answer under the entry that gave it, as not matched.
            let coverage = try mock.admin("/__admin/coverage")
            #expect(coverage["upstream"] == ["compared": 1, "matched": 0])
            #expect(coverage["entries"]?[0]?["upstream"] == ["compared": 1, "matched": 0])
        }

        @Test func anUnreachableUpstreamLeavesTheClientsAnswerAlone() throws {
            // A port that was just free: nothing listens there.
            let listener = try System.listen(host: "127.0.0.1", port: 0, backlog: 1)
            let port = System.localPort(listener)
            System.close(listener)
            let mock = try mock(upstream: "http://127.0.0.1:\(port)")
            let answer = try mock.get("/api/v2/conversion_value", session("DOWN"))
            #expect(answer.text.hasPrefix(#"{"status":"ok","conversion_value":1"#))
            let entry = try #require(try entries(mock, device: "DOWN").first)
            #expect(entry["issues"]?[0]?["code"] == "upstream_unreachable")
            #expect(entry["upstream"]?["error"] == "unreachable")
        }

        /// An upstream that accepts and never answers: the client is answered at once, the entry
        /// waits for the timeout and says so.
        @Test func aSilentUpstreamTimesOutWithoutDelayingTheClient() throws {
            let silent = try System.listen(host: "127.0.0.1", port: 0, backlog: 8)
            defer { System.close(silent) }
            let mock = try mock(upstream: "http://127.0.0.1:\(System.localPort(silent))", timeout: 1)
            let answer = try mock.get("/api/v2/conversion_value", session("SLOW"))
            #expect(answer.status == 200)
            // Answered while the upstream is still being waited for: the entry is not there yet.
            #expect(try mock.admin("/__admin/requests/count?device=SLOW")["count"] == 0)
            let entry = try #require(try entries(mock, device: "SLOW").first)
            #expect(entry["issues"]?[0]?["code"] == "upstream_timeout")
            #expect(entry["upstream"]?["error"] == "timeout")
        }

        /// An upstream slower than the traffic: past the requests in flight and the queue, a
        /// shadowed request is not sent, journaled at once with `upstream_skipped`; memory stays bounded.
        @Test func aFullQueueSkipsTheUpstreamInsteadOfGrowing() throws {
            let silent = try System.listen(host: "127.0.0.1", port: 0, backlog: 8)
            defer { System.close(silent) }
            var options = try UpstreamOptions(
                baseURL: "http://127.0.0.1:\(System.localPort(silent))", timeoutSeconds: 2)
            options.maxInFlight = 1
            options.maxWaiting = 1
            let mock = try TestSKANMock(configure: { $0.upstream = options })
            for _ in 1...4 { #expect(try mock.get("/api/v2/conversion_value", session("FULL")).status == 200) }
            // At most two were taken (one sent, one waiting; one fewer when the client's thread had
            // not yet taken the first when the second came); the others are not sent. Shadow mode
            // journals in arrival order, so they are journaled once the ones before them are.
            // The ones taken time out (the one waiting, within what is left of its timeout), and
            // are journaled as such.
            let all = try mock.admin("/__admin/requests/wait?device=FULL&count=4&timeout_ms=10000")
            #expect(all["timed_out"] == false)
            for entry in all["requests"]?.arrayValue ?? [] where entry["upstream"]?["error"] == "not_sent" {
                #expect(entry["issues"]?[0]?["code"] == "upstream_skipped")
            }
            let codes = (all["requests"]?.arrayValue ?? []).compactMap { $0["issues"]?[0]?["code"]?.stringValue }
            let notSent = codes.filter { $0 == "upstream_skipped" }.count
            #expect(codes.count == 4 && (2...3).contains(notSent))
            #expect(codes.filter { $0 == "upstream_timeout" }.count == 4 - notSent)
        }

        /// The queue is bounded in bytes too: large requests (bodies up to 1 MiB each) waiting
        /// for a slow upstream used to be held up to the count, 4 GiB.
        @Test func theQueueIsBoundedInBytes() throws {
            let silent = try System.listen(host: "127.0.0.1", port: 0, backlog: 8)
            defer { System.close(silent) }
            var options = try UpstreamOptions(
                baseURL: "http://127.0.0.1:\(System.localPort(silent))", timeoutSeconds: 2)
            options.maxInFlight = 1
            options.maxWaitingBytes = 1500
            let mock = try TestSKANMock(configure: { $0.upstream = options })
            let padded = session("BYTES") + [("padding", String(repeating: "x", count: 1000))]
            for _ in 1...4 { #expect(try mock.get("/api/v2/conversion_value", padded).status == 200) }
            // One in flight and one waiting at most: the others would put the queue past 1,500 bytes.
            let all = try mock.admin("/__admin/requests/wait?device=BYTES&count=4&timeout_ms=10000")
            #expect(all["timed_out"] == false)
            let codes = (all["requests"]?.arrayValue ?? []).compactMap { $0["issues"]?[0]?["code"]?.stringValue }
            #expect(codes.count == 4 && (2...3).contains(codes.filter { $0 == "upstream_skipped" }.count), "\(codes)")
        }

        @Test func proxyAnswersWithTheUpstreamAndTheDeviceFollowsIt() throws {
            let production = try TestSKANMock(configure: {
                $0.modelPath =
                    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
                        "config/revenue.json"
                    ).path
            })
            let mock = try mock(upstream: "http://127.0.0.1:\(production.server.port)", mode: .proxy)
            let answer = try mock.get("/api/v2/conversion_value", session("PROXY"))
            #expect(
                answer.text
                    == #"{"status":"ok","conversion_value":0,"skan_updated_coarse_value":0,"skan_updated_lock_window_value":false}"#
            )
            let entry = try #require(try entries(mock, device: "PROXY").first)
            #expect(entry["response"]?["body"]?.stringValue == answer.text)
            #expect(entry["model"]?["body"]?.stringValue?.contains(#""conversion_value":1"#) == true)
            #expect(entry["issues"]?[0]?["code"] == "differs_from_upstream")
            // The device's state holds what the client got: production's 0, not the model's 1.
            let device = try mock.admin("/__admin/devices/PROXY")
            #expect(device["skan4"]?["p0"]?["last_returned"]?["fine"] == 0)
        }

        /// The client keeps its libcurl handles between requests, and a handle whose last request
        /// was a plain GET serves the next GET without a reset: nothing of a POST (method, body)
        /// or of an earlier GET (query, headers) may carry over to the request after it.
        @Test func reusedHandlesCarryNothingFromOneRequestToTheNext() throws {
            let production = try TestSKANMock()
            let mock = try mock(upstream: "http://127.0.0.1:\(production.server.port)", mode: .proxy)
            let identity = "a=k&p=iOS&i=com.x&idfv=REUSE"
            let form = ["Content-Type: application/x-www-form-urlencoded"]
            let sent: [(method: String, query: String, body: String?)] = [
                ("GET", "\(identity)&n=first", nil),
                ("POST", identity, "n=second&extra=1"),
                ("GET", "\(identity)&n=third", nil),
                ("GET", "\(identity)&n=fourth", nil),
                ("POST", identity, "n=fifth"),
                ("GET", "\(identity)&n=sixth", nil)
            ]
            for request in sent {
                let response = try mock.client.request(
                    request.method, mock.url("/api/v1/evt?\(request.query)"), body: request.body.map { Array($0.utf8) },
                    headers: request.body == nil ? [] : form)
                #expect(response.status == 200)
            }
            let forwarded = try production.journal("device=REUSE")
            #expect(forwarded.map { $0["method"]?.stringValue } == sent.map(\.method))
            #expect(
                forwarded.map { $0["params"]?["n"]?.stringValue }
                    == ["first", "second", "third", "fourth", "fifth", "sixth"])
            // Only the POST that sent it has `extra`.
            #expect(forwarded.map { $0["params"]?["extra"] != nil } == [false, true, false, false, false, false])
        }

        /// The upstream gets the request target byte for byte as the app sent it: libcurl is handed
        /// the path and query apart from the URL (so that it neither parses nor reformats them), and
        /// nothing may be decoded, re-encoded or reordered on the way.
        @Test(arguments: [UpstreamOptions.Mode.shadow, .proxy])
        func theUpstreamGetsTheTargetByteForByte(mode: UpstreamOptions.Mode) throws {
            let seen = Mutex<[String]>([])
            let upstream = try TestHTTPServer(responder: TargetRecorder(seen: seen))
            let mock = try mock(upstream: "http://127.0.0.1:\(upstream.port)", mode: mode)
            let queries = [
                "a=k&p=iOS&i=com.x&idfv=BYTES&n=__SESSION__&e=%7B%22is_revenue_event%22%3Afalse%7D",
                "a=k&p=iOS&idfv=BYTES&n=a+b%2Bc%25d&x=~!*'()&empty=&flag&%C3%A9=%C3%A9&n=twice",
                "a=k&p=iOS&idfv=BYTES&n=evt&e=" + String(repeating: "%7B%22r%22%3A1.5%7D", count: 60)
            ]
            for query in queries {
                #expect(try mock.client.get(mock.url("/api/v1/evt?\(query)")).status == 200)
            }
            #expect(try entries(mock, device: "BYTES", count: queries.count).count == queries.count)
            // Shadowed requests may travel on different connections: the order they arrive in is free.
            #expect(seen.withLock { $0 }.sorted() == queries.map { "/api/v1/evt?" + $0 }.sorted())
        }

        /// Answers every request as Singular would and keeps its target as it came off the wire.
        private struct TargetRecorder: HTTPResponder {
            let seen: Mutex<[String]>

            func respond(to request: HTTPRequest, writer: HTTPResponseWriter) {
                seen.withLock { $0.append(request.target) }
                writer.send(HTTPResponse(body: Array(#"{"status":"ok"}"#.utf8)))
            }
        }

        @Test func proxyAnswers502InSingularsShapeWhenTheUpstreamIsDown() throws {
            let listener = try System.listen(host: "127.0.0.1", port: 0, backlog: 1)
            let port = System.localPort(listener)
            System.close(listener)
            let mock = try mock(upstream: "http://127.0.0.1:\(port)", mode: .proxy)
            let answer = try mock.get("/api/v2/conversion_value", session("GONE"))
            #expect(answer.status == 502)
            let body = try JSONParser.parse(answer.body)
            #expect(body["status"] == "error")
            #expect(body["reason"]?.stringValue?.hasPrefix("skan-mock could not get the upstream's answer") == true)
            let entry = try #require(try entries(mock, device: "GONE").first)
            #expect(entry["response"]?["status"] == 502)
            #expect(entry["issues"]?[0]?["code"] == "upstream_unreachable")
            // Nothing was answered by the model, so the device has no state from it.
            #expect(try mock.client.get(mock.url("/__admin/devices/GONE")).status == 404)
        }

        #if SKAN_MOCK_TLS
            /// An HTTPS upstream verified against the CA given with `--upstream-ca`, and refused without it.
            @Test func anHTTPSUpstreamIsVerifiedAgainstTheGivenCA() throws {
                let folder = NSTemporaryDirectory() + "skan-upstream-\(UUID().uuidString)"
                defer { try? FileManager.default.removeItem(atPath: folder) }
                let production = try TestSKANMock(configure: {
                    $0.https = HTTPSOptions(port: 0, stateDirectory: folder)
                })
                let url = "https://127.0.0.1:\(try #require(production.server.httpsPort))"
                let trusting = try mock(upstream: url, ca: folder + "/ca.pem")
                #expect(try trusting.get("/api/v2/conversion_value", session("TLS")).status == 200)
                let entry = try #require(try entries(trusting, device: "TLS").first)
                #expect(entry["upstream"]?["status"] == 200)
                #expect(entry["issues"]?.arrayValue?.isEmpty == true)
                #expect(try production.journal("device=TLS").first?["tls"]?.stringValue?.hasPrefix("TLSv1.") == true)

                // The system's store does not know skan-mock's local CA: the certificate is refused.
                let strict = try mock(upstream: url)
                _ = try strict.get("/api/v2/conversion_value", session("TLS-2"))
                let refused = try #require(try entries(strict, device: "TLS-2").first)
                #expect(refused["issues"]?[0]?["code"] == "upstream_unreachable")
            }
        #endif

        /// The report says how the run compared, and `skan-mock compare` says the same of the log file,
        /// failing CI with --fail-on-differences.
        @Test func theReportAndTheCompareCommandSumUpTheRun() throws {
            let production = try TestSKANMock(configure: {
                $0.modelPath =
                    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
                        "config/revenue.json"
                    ).path
            })
            let mock = try mock(upstream: "http://127.0.0.1:\(production.server.port)")
            _ = try mock.get("/api/v2/conversion_value", session("R-1"))
            _ = try mock.get("/api/v1/conversion_value", [("idfv", "R-1"), ("conversion_value", "0")])
            _ = try mock.get("/api/v1/launch", [("a", "K"), ("p", "iOS"), ("i", "com.x"), ("idfv", "R-1")])
            _ = try entries(mock, device: "R-1", count: 3)
            let upstream = try #require(try mock.admin("/__admin/report")["upstream"])
            #expect(upstream["compared"] == 3)
            #expect(upstream["matched"] == 1)
            #expect(upstream["differed"] == 2)
            #expect(upstream["examples"]?[0]?["kind"] == "differs_from_upstream")
            mock.server.flushJournalLog()

            let binary = try #require(ProcessLifecycleTests.executable)
            for (arguments, status) in [([String](), Int32(0)), (["--fail-on-differences"], Int32(1))] {
                let process = Process()
                process.executableURL = binary
                process.arguments = ["compare", mock.logPath] + arguments
                let output = Pipe()
                process.standardOutput = output
                try process.run()
                let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                process.waitUntilExit()
                #expect(process.terminationStatus == status)
                #expect(
                    text.hasPrefix(
                        "3 answers compared with the upstream: 1 matched, 2 differed, 0 without an upstream answer"))
                #expect(text.contains("skan4 p0: 1 compared, 0 matched, 1 differed"))
                #expect(text.contains("launch -: 1 compared, 1 matched, 0 differed"))
            }
        }

        @Test func badUpstreamOptionsAreRefused() {
            #expect(throws: UpstreamOptions.ParseError.self) { try UpstreamOptions(baseURL: "sdk-api-v1.singular.net") }
            #expect(throws: UpstreamOptions.ParseError.self) { try UpstreamOptions(baseURL: "https://host/api/v2") }
            #expect(throws: UpstreamOptions.ParseError.self) {
                try UpstreamOptions(baseURL: "https://host", timeoutSeconds: 0)
            }
            #expect((try? UpstreamOptions(baseURL: "https://host:8443/"))?.baseURL == "https://host:8443")
            #expect(throws: SKANMockServer.StartupError.self) {
                _ = try TestSKANMock(configure: {
                    $0.upstream = try? UpstreamOptions(baseURL: "https://host", caFile: "/nonexistent/ca.pem")
                })
            }
        }
    }
#endif
