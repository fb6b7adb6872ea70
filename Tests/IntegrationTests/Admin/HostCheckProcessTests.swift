import Foundation
import SystemPOSIX
import Testing

/// DNS rebinding on every bind (issue 43.4), with the built binary bound to every interface (the
/// iPhone set-up, and Docker's) and reached on 127.0.0.1 only: the console and every admin route
/// answer only a `Host` that is one of this machine's names or addresses, or one given with
/// `--allowed-host` / `SKAN_MOCK_ALLOWED_HOSTS`; Singular's endpoints answer any.
@Suite("Admin routes refuse other host names on every bind", .serialized)
struct HostCheckProcessTests {
    /// Starts `skan-mock --host 0.0.0.0 --port 0 ARGUMENTS`, returning it and its port.
    private func launch(_ arguments: [String], environment: [String: String] = [:]) throws -> (Process, Int) {
        try SKANMockExecutable.serve(["--host", "0.0.0.0"] + arguments, environment: environment)
    }

    private func status(_ port: Int, _ path: String, method: String = "GET", host: String) throws -> Int {
        try CurlClient().request(method, "http://127.0.0.1:\(port)\(path)", headers: ["Host: \(host)"]).status
    }

    /// `--host 0.0.0.0` without a token: a page that rebinds its name to 127.0.0.1 reads nothing
    /// and changes nothing; the machine's own names and addresses still work.
    @Test func aServerOnEveryInterfaceRefusesARebindingPage() throws {
        let (server, port) = try launch([])
        defer { _ = server.terminateAndWait(atMost: 10) }
        let rebound = "rebind.example:\(port)"
        for path in ["/", "/__admin/ui", "/__admin/health", "/__admin/requests", "/__admin/report", "/__admin/model"] {
            #expect(try status(port, path, host: rebound) == 421, "GET \(path)")
        }
        #expect(try status(port, "/__admin/reset", method: "POST", host: rebound) == 421)
        #expect(try status(port, "/__admin/requests", method: "DELETE", host: rebound) == 421)
        let refusal = try CurlClient().get("http://127.0.0.1:\(port)/__admin/requests", headers: ["Host: \(rebound)"])
        #expect(refusal.text.contains("--allowed-host"), "\(refusal.text)")
        // Singular's endpoints answer whatever the Host.
        #expect(try status(port, "/api/v1/conversion_value?conversion_value=0", host: rebound) == 200)

        var own = ["localhost:\(port)", "127.0.0.1:\(port)", "127.0.0.2:\(port)", "[::1]:\(port)", "0.0.0.0:\(port)"]
        own.append("my-mac.local:\(port)")
        if let name = System.hostName() { own.append("\(name):\(port)") }
        if let address = System.networkAddresses(includingIPv6: false).first { own.append("\(address):\(port)") }
        for host in own {
            #expect(try status(port, "/__admin/requests", host: host) == 200, "Host: \(host)")
        }
    }

    /// Docker: `--admin-open` inside a container, reached through the host's published port as
    /// `localhost`, and from another container under the Compose service's name, given with
    /// SKAN_MOCK_ALLOWED_HOSTS (or --allowed-host).
    @Test func namesGivenWithAllowedHostAreAnswered() throws {
        let (server, port) = try launch(
            ["--admin-open", "--allowed-host", "qa-box.example"], environment: ["SKAN_MOCK_ALLOWED_HOSTS": "skan-mock"])
        defer { _ = server.terminateAndWait(atMost: 10) }
        #expect(try status(port, "/__admin/requests", host: "localhost:8080") == 200)
        #expect(try status(port, "/__admin/faults", method: "PUT", host: "127.0.0.1:8080") != 421)
        #expect(try status(port, "/__admin/requests", host: "qa-box.example:8080") == 200)
        #expect(try status(port, "/__admin/requests", host: "rebind.example:8080") == 421)
        // The command line wins over the environment, as for every option.
        #expect(try status(port, "/__admin/requests", host: "skan-mock:8080") == 421)

        let (compose, composePort) = try launch(
            ["--admin-open"], environment: ["SKAN_MOCK_ALLOWED_HOSTS": "skan-mock, Other.Test"])
        defer { _ = compose.terminateAndWait(atMost: 10) }
        #expect(try status(composePort, "/__admin/requests", host: "skan-mock:8080") == 200)
        #expect(try status(composePort, "/__admin/reset", method: "POST", host: "other.test") == 200)
        #expect(try status(composePort, "/__admin/requests", host: "skan-mock.evil:8080") == 421)
    }
}
