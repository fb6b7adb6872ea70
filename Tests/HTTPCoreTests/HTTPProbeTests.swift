import SystemPOSIX
import Testing

@testable import HTTPCore

/// What the blocking client writes on the request line, whoever gave it the text (issue 47).
@Suite struct HTTPProbeTests {
    @Test func anIPv6HostHeaderHasBrackets() {
        #expect(HTTPProbe.hostHeader(host: "::1", port: 8080) == "[::1]:8080")
        #expect(HTTPProbe.hostHeader(host: "127.0.0.1", port: 80) == "127.0.0.1:80")
        #expect(HTTPProbe.hostHeader(host: "example.com", port: 9) == "example.com:9")
    }

    @Test func textThatWouldBreakTheLineIsNeverWritten() {
        let target = "/x HTTP/1.1\r\nX: 1"
        #expect(throws: HTTPProbe.Failure.self) {
            try HTTPProbe.post(host: "127.0.0.1", port: 9, path: target, body: [], timeout: 1)
        }
        #expect(throws: HTTPProbe.Failure.self) {
            try HTTPProbe.post(
                host: "127.0.0.1", port: 9, path: "/x", headers: [("X", "a\r\nY: b")], body: [], timeout: 1)
        }
        #expect(HTTPProbe.breaksTheLine("a b", spaceAllowed: false))
        #expect(!HTTPProbe.breaksTheLine("a b", spaceAllowed: true))
        #expect(HTTPProbe.breaksTheLine("a\u{0}b", spaceAllowed: true))
        #expect(!HTTPProbe.breaksTheLine("/a%0d%0a?b=c", spaceAllowed: false))
    }

    /// `admit` sees the address the name resolved to and can refuse it before anything connects:
    /// the reason it gives is the failure's.
    @Test func admitSeesTheResolvedAddressAndCanRefuseIt() throws {
        let listener = try System.listen(host: "127.0.0.1", port: 0, backlog: 1)
        defer { System.close(listener) }
        var seen: [String] = []
        do {
            _ = try HTTPProbe.post(
                host: "localhost", port: System.localPort(listener), path: "/", body: [], timeout: 1,
                admit: { address in
                    seen.append(address)
                    return "refused: \(address) is this server"
                })
            Issue.record("the post went through")
        } catch {
            #expect(error.description.hasPrefix("refused: "))
        }
        #expect(seen.count == 1 && (seen[0] == "127.0.0.1" || seen[0] == "::1"), "\(seen)")
        #expect(!System.waitReadable(listener, milliseconds: 0), "nothing connected")
    }

    @Test func numericAddressesSeeThroughEverySpelling() {
        for spelling in ["127.0.0.1", "127.1", "2130706433", "0x7f000001", "0177.0.0.1"] {
            #expect(System.numericAddress(spelling) == "127.0.0.1", "\(spelling)")
        }
        #expect(System.numericAddress("0") == "0.0.0.0")
        #expect(System.numericAddress("::1") == "::1")
        #expect(System.numericAddress("0:0:0:0:0:0:0:1") == "::1")
        #expect(System.numericAddress("localhost") == nil)
    }
}
