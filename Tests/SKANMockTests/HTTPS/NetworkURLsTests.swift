import Testing

@testable import SKANMock

/// The phone's addresses announced at start: only what the socket serves (issue 21).
@Suite("Network URLs")
struct NetworkURLsTests {
    private func addresses(_ ipv6: Bool) -> [String] { ["192.168.1.20"] + (ipv6 ? ["2001:db8::20"] : []) }

    @Test func announcesOnlyWhatTheBindServes() {
        #expect(
            SKANMockServer.networkURLs(host: "0.0.0.0", port: 8080, httpsPort: 8443, addresses: addresses)
                == ["skan-mock on this network: http://192.168.1.20:8080 https://192.168.1.20:8443"])
        #expect(
            SKANMockServer.networkURLs(host: "::", port: 8080, httpsPort: nil, addresses: addresses)
                == [
                    "skan-mock on this network: http://192.168.1.20:8080",
                    "skan-mock on this network: http://[2001:db8::20]:8080"
                ])
        #expect(SKANMockServer.networkURLs(host: "127.0.0.1", port: 8080, httpsPort: nil, addresses: addresses).isEmpty)
    }
}
