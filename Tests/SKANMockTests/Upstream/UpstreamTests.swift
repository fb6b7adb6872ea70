import HTTPCore
import SKANDomain
import Testing

@testable import SKANMock

/// What goes to the upstream for a request: built once, checked without sending it.
@Suite("What is forwarded")
struct UpstreamTests {
    @Test func aHashInTheQueryGoesAsPercent23AndViaIsAppended() throws {
        let upstream = Upstream(
            try UpstreamOptions(baseURL: "http://upstream.test:8081/", mode: .shadow, timeoutSeconds: 2),
            transport: UpstreamTwin())
        let request = HTTPRequest(
            method: .post, target: "/v2/cv?n=a#b", headers: ["Via": "1.0 proxy", "Content-Type": "x/y"],
            body: Array("idfv=1".utf8))
        let exchange = upstream.exchange(for: request, endpoint: .event, added: [.init(name: "p", value: "iOS")])
        #expect(
            exchange
                == UpstreamForward(
                    method: "POST", origin: "http://upstream.test:8081", target: "/api/v1/evt?n=a%23b&p=iOS",
                    headers: ["Content-Type: x/y", "Via: 1.0 proxy, 1.1 skan-mock"], body: Array("idfv=1".utf8),
                    timeoutSeconds: 2))
    }
}
