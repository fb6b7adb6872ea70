#if SKAN_MOCK_UPSTREAM
    import Foundation
    import SystemPOSIX
    import Testing

    /// The upstream client gives libcurl a request's path and query apart from the URL, which is
    /// right for an origin server and for HTTPS through a proxy (a tunnel), but not for plain HTTP
    /// through a forward proxy named in the environment: that one must get the whole URL as the
    /// target. The real executable, with `http_proxy` set, against a socket playing the proxy.
    @Suite("Upstream behind a forward proxy")
    struct UpstreamProxyEnvironmentTests {
        @Test func aPlainHTTPUpstreamBehindHTTPProxyIsAskedForByItsWholeURL() throws {
            let proxy = try System.listen(host: "127.0.0.1", port: 0, backlog: 8)
            defer { System.close(proxy) }
            let binary = try #require(ProcessLifecycleTests.executable)
            let process = Process()
            process.executableURL = binary
            process.arguments = [
                "--port", "0", "--upstream", "http://upstream.test:8081", "--upstream-mode", "shadow",
                "--upstream-timeout", "2"
            ]
            process.environment = ["http_proxy": "http://127.0.0.1:\(System.localPort(proxy))"]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = Pipe()
            try process.run()
            defer { #expect(process.terminateAndWait(), "SIGTERM stopped the server") }
            let port = try #require(ListeningLine.port(of: output))
            let query = "a=k&p=iOS&i=com.x&idfv=PROXIED&n=__SESSION__&e=%7B%22x%22%3A1%7D"
            #expect(try CurlClient().get("http://127.0.0.1:\(port)/api/v1/evt?\(query)").status == 200)
            let head = try #require(Self.firstRequestHead(arrivingAt: proxy, within: 10))
            #expect(head.hasPrefix("GET http://upstream.test:8081/api/v1/evt?\(query) HTTP/1.1\r\n"), "\(head)")
        }

        /// The head of the first request on the first connection to `listener`, nil when none
        /// arrives in time (the listener and the connection are non-blocking: each waited for with
        /// `poll`, bounded).
        private static func firstRequestHead(arrivingAt listener: Int32, within seconds: Double) -> String? {
            let deadline = Date().addingTimeInterval(seconds)
            var connection: Int32?
            while connection == nil && Date() < deadline {
                let left = Int32(max(1, deadline.timeIntervalSinceNow * 1_000))
                guard System.waitReadable(listener, milliseconds: left) else { continue }
                if case .done(let accepted)? = try? System.accept(listener) { connection = accepted.fd }
            }
            guard let connection else { return nil }
            defer { System.close(connection) }
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 4096)
            while Date() < deadline {
                guard System.waitReadable(connection, milliseconds: 100) else { continue }
                guard case .done(let count)? = try? System.read(connection, &chunk, chunk.count), count > 0 else {
                    return nil
                }
                bytes += chunk[..<count]
                let text = String(decoding: bytes, as: UTF8.self)
                if text.contains("\r\n\r\n") { return text }
            }
            return nil
        }
    }
#endif
