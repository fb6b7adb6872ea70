import HTTPCore
import Testing

@testable import SKANMock

/// Which `Host` names the admin side answers on each bind (DNS rebinding, issue 43.4), with the
/// machine's name and addresses given, without sockets.
@Suite("Admin host names")
struct AdminHostCheckTests {
    private func lan(allowed: [String] = [], tls: [String] = []) -> AdminHostCheck {
        AdminHostCheck(
            listenHost: "0.0.0.0", allowedHosts: allowed, tlsNames: tls, hostName: "qa-mac",
            interfaceAddresses: { ["127.0.0.1", "192.168.1.20", "fd00::20", "::1"] })
    }

    @Test(arguments: [
        "localhost:8080", "127.0.0.1", "127.0.0.2:80", "[::1]:8080", "0.0.0.0:8080", "192.168.1.20:8080",
        "192.168.1.20", "[fd00::20]:8080", "[FD00:0::20]", "qa-mac:8080", "QA-MAC.local.", "qa-mac.local:8443",
        "iphone-lab.local", "mock.example.test:8443", "10.9.8.7", "skan-mock:8080", nil, ""
    ])
    func aServerOnEveryInterfaceAnswersThisMachinesNames(host: String?) {
        #expect(lan(allowed: ["skan-mock"], tls: ["mock.example.test", "10.9.8.7"]).isAllowed(host: host))
    }

    @Test(arguments: [
        "rebind.example:8080", "192.168.1.21:8080", "[fd00::21]", "qa-mac.example", ".local", "local",
        "skan-mock.evil:8080", "10.9.8.70", "[::1", "localhost.evil"
    ])
    func aServerOnEveryInterfaceRefusesOtherNames(host: String) {
        #expect(!lan(allowed: ["skan-mock"], tls: ["mock.example.test", "10.9.8.7"]).isAllowed(host: host))
    }

    /// Loopback binds answer loopback names and the allowed ones, not the machine's LAN names.
    @Test func aLoopbackBindAnswersLoopbackAndAllowedNamesOnly() {
        let local = AdminHostCheck(
            listenHost: "127.0.0.1", allowedHosts: ["Dev.Test:9000", "[::2]"], tlsNames: ["tls.example"],
            hostName: "qa-mac", interfaceAddresses: { ["192.168.1.20"] })
        for host in ["localhost:1", "127.0.0.1:8080", "dev.test", "DEV.TEST.:8080", "[::2]:80"] {
            #expect(local.isAllowed(host: host), "\(host)")
        }
        for host in ["qa-mac", "qa-mac.local", "192.168.1.20", "tls.example", "other.local", "0.0.0.0"] {
            #expect(!local.isAllowed(host: host), "\(host)")
        }
    }

    /// The 421 says how to add a name.
    @Test func theRefusalNamesTheOptionThatAddsAName() {
        let response = lan().misdirected(host: "rebind.example:8080")
        #expect(response.status.code == 421)
        let body = String(decoding: response.body, as: UTF8.self)
        #expect(body.contains("rebind.example:8080") && body.contains("--allowed-host NAME"))
        #expect(body.contains("SKAN_MOCK_ALLOWED_HOSTS"))
    }
}
