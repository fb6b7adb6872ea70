import HTTPCore
import Testing

@testable import SKANMock

/// Who may use the admin API, by bind address, token and peer, without sockets.
@Suite("Admin guard")
struct AdminGuardTests {
    private func request(
        _ method: HTTPMethod, _ path: String = "/__admin/reset", peer: String,
        headers: [(String, String)] = [("Host", "192.168.1.20:8080")], body: String = ""
    ) -> HTTPRequest {
        var fields = HTTPHeaders()
        for (name, value) in headers { fields.add(name, value) }
        return HTTPRequest(method: method, target: path, headers: fields, body: Array(body.utf8), remoteAddress: peer)
    }

    /// This machine, at 192.168.1.20 on its LAN, bound to every interface.
    private let thisMachine = AdminHostCheck(
        listenHost: "0.0.0.0", hostName: nil, interfaceAddresses: { ["127.0.0.1", "192.168.1.20"] })

    /// The iPhone set-up (`--host 0.0.0.0`, no token): the phone and the LAN read, only this
    /// machine changes.
    @Test func beyondLoopbackWithoutATokenChangesComeFromThisMachineOnly() {
        let lan = AdminGuard(listenHost: "0.0.0.0", hasToken: false, adminOpen: false, hosts: thisMachine)
        #expect(lan.changesFromThisMachineOnly)
        #expect(lan.refusal(for: request(.post, peer: "192.168.1.31:50000"))?.status.code == 403)
        // The 403 names the variables too: in Docker and Compose they, not flags, are what users set.
        let reason = String(
            decoding: lan.refusal(for: request(.post, peer: "192.168.1.31:50000"))?.body ?? [], as: UTF8.self)
        #expect(
            reason.contains("SKAN_MOCK_ADMIN_TOKEN=TOKEN") && reason.contains("SKAN_MOCK_ADMIN_OPEN=1"), "\(reason)")
        #expect(lan.refusal(for: request(.put, "/__admin/model", peer: "[fe80::1]:50000"))?.status.code == 403)
        #expect(lan.refusal(for: request(.post, peer: "127.0.0.1:50000")) == nil)
        #expect(lan.refusal(for: request(.delete, "/__admin/requests", peer: "[::1]:50000")) == nil)
        #expect(lan.refusal(for: request(.get, "/__admin/requests", peer: "192.168.1.31:50000")) == nil)
        #expect(lan.refusal(for: request(.get, "/__admin/phone", peer: "192.168.1.31:50000")) == nil)
        // A token or --admin-open lifts it: the token is then checked by AdminAuthorization.
        #expect(!AdminGuard(listenHost: "0.0.0.0", hasToken: true, adminOpen: false).changesFromThisMachineOnly)
        #expect(
            AdminGuard(listenHost: "0.0.0.0", hasToken: false, adminOpen: true, hosts: thisMachine).refusal(
                for: request(.post, peer: "192.168.1.31:5")) == nil)
        #expect(!AdminGuard(listenHost: "127.0.0.1", hasToken: false, adminOpen: false).changesFromThisMachineOnly)
    }

    @Test func aLoopbackBindAnswersOnlyLoopbackHostNames() {
        let local = AdminGuard(listenHost: "127.0.0.1", hasToken: false, adminOpen: false)
        let rebound = request(.get, "/__admin/requests", peer: "127.0.0.1:1", headers: [("Host", "evil.example")])
        #expect(local.refusal(for: rebound)?.status.code == 421)
        #expect(
            local.refusal(
                for: request(.get, "/__admin/requests", peer: "127.0.0.1:1", headers: [("Host", "localhost:8080")]))
                == nil)
    }

    /// Bound beyond loopback, a page that rebinds its name to this machine is refused before any
    /// other rule, reads included, from any peer, with a token or `--admin-open` too (issue 43.4).
    @Test func beyondLoopbackAnotherHostNameIsMisdirected() {
        for (token, open) in [(false, false), (true, false), (false, true)] {
            let lan = AdminGuard(listenHost: "0.0.0.0", hasToken: token, adminOpen: open, hosts: thisMachine)
            let rebound = [("Host", "rebind.example:8080")]
            #expect(
                lan.refusal(for: request(.get, "/__admin/requests", peer: "127.0.0.1:1", headers: rebound))?.status.code
                    == 421)
            #expect(lan.refusal(for: request(.post, peer: "192.168.1.31:5", headers: rebound))?.status.code == 421)
        }
    }

    @Test func recognisesJSONAndLoopbackPeers() {
        #expect(AdminGuard.isJSON("application/json; charset=utf-8"))
        #expect(AdminGuard.isJSON("application/merge-patch+json"))
        #expect(!AdminGuard.isJSON("text/plain"))
        #expect(!AdminGuard.isJSON(nil))
        #expect(
            AdminGuard.isLoopbackPeer("127.0.0.1:5") && AdminGuard.isLoopbackPeer("[::1]:5")
                && AdminGuard.isLoopbackPeer("[::ffff:127.0.0.1]:5"))
        #expect(!AdminGuard.isLoopbackPeer("10.0.0.127:5") && !AdminGuard.isLoopbackPeer("[::2]:5"))
    }
}
