import HTTPCore
import Testing

@testable import SKANMock

@Suite("DNS rebinding guard")
struct LoopbackHostCheckTests {
    @Test(arguments: [
        "localhost", "localhost:8080", "app.localhost:1", "127.0.0.1", "127.1.2.3:80", "[::1]:8080", "[::1]",
        "LOCALHOST.", nil, ""
    ])
    func allowsLoopbackNames(host: String?) {
        #expect(LoopbackHostCheck.isAllowed(host: host))
    }

    @Test(arguments: [
        "evil.example", "evil.example:8080", "127.0.0.1.evil.example", "128.0.0.1", "127.0.0.256", "[::2]:80",
        "localhost.evil", "192.168.1.20:8080"
    ])
    func refusesOtherNames(host: String) {
        #expect(!LoopbackHostCheck.isAllowed(host: host))
    }

    @Test func knowsWhichListenAddressesAreLoopback() {
        #expect(LoopbackHostCheck.isLoopback(listenHost: "127.0.0.1"))
        #expect(LoopbackHostCheck.isLoopback(listenHost: "::1"))
        #expect(!LoopbackHostCheck.isLoopback(listenHost: "0.0.0.0"))
    }
}
