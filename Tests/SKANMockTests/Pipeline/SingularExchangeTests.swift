import HTTPCore
import SKANDomain
import Testing

@testable import SKANMock

/// Stage 1: a request read once, into the typed value every later stage uses.
@Suite("The request read once")
struct SingularExchangeTests {
    private let routes = SingularRoutes(aliases: [
        RouteAlias(
            path: "/v2/attribution", endpoint: .skan4,
            parameters: [.init(name: "a", value: "ALIAS-KEY"), .init(name: "p", value: "iOS")])
    ])

    private func exchange(
        _ method: HTTPMethod = .get, _ target: String, headers: HTTPHeaders = HTTPHeaders(), body: String = "",
        tls: String? = nil
    ) -> SingularExchange {
        var request = HTTPRequest(method: method, target: target, headers: headers, body: Array(body.utf8))
        request.tlsVersion = tls
        return SingularExchange(request, routes: routes, clockOffsetSeconds: 60, started: 0)
    }

    @Test func anAliasAddsWhatTheClientDidNotSendAndTheEntrySaysWhich() {
        let parsed = exchange(.post, "/v2/attribution?p=android", body: "idfv=D1&n=__SESSION__")
        #expect(parsed.endpoint == .skan4)
        #expect(parsed.request.parameters.raw("a") == "ALIAS-KEY")
        #expect(parsed.request.parameters.raw("p") == "android")
        #expect(parsed.request.parameters.raw("idfv") == "D1")
        #expect(
            parsed.members == [
                JSONMember("clock_offset_s", .int(60)), JSONMember("tls", .null),
                JSONMember("route_params", .object([JSONMember("a", .string("ALIAS-KEY"))]))
            ])
    }

    @Test func theTLSVersionIsAMember() {
        let parsed = exchange(.get, "/api/v1/conversion_value?a=K", tls: "TLSv1.3")
        #expect(parsed.members == [JSONMember("clock_offset_s", .int(60)), JSONMember("tls", .string("TLSv1.3"))])
    }

    /// Route first, then the method, then the body type.
    @Test func refusalsComeInTheirOrder() {
        guard case .refused(let unmatched) = exchange(.delete, "/nowhere", body: "{}").admission(listing: "L") else {
            Issue.record("a path no endpoint serves was admitted")
            return
        }
        #expect(unmatched.endpoint == nil && unmatched.status == .notFound)
        #expect(unmatched.reason == "no Singular endpoint at /nowhere; skan-mock serves L")

        let json: HTTPHeaders = ["Content-Type": "application/json"]
        guard
            case .refused(let method) = exchange(.delete, "/api/v1/evt", headers: json, body: "{}").admission(
                listing: "L")
        else {
            Issue.record("DELETE was admitted")
            return
        }
        #expect(method.status == .methodNotAllowed && method.allow == "GET, HEAD, POST")

        // S2S (issue 50.13): Singular reads the query and ignores the body, so the request is
        // answered from the query as Singular would, and the body's finding goes with it; a SKAN
        // endpoint says 415.
        let s2sJSON = exchange(.post, "/api/v1/evt?a=K", headers: json, body: "{}")
        guard case .admitted(.event) = s2sJSON.admission(listing: "L") else {
            Issue.record("an S2S request with a JSON body was refused")
            return
        }
        #expect(s2sJSON.bodyFinding?.code == .unsupportedBody)
        #expect(s2sJSON.bodyFinding?.message.contains("query string") == true)
        #expect(exchange(.post, "/api/v1/evt?a=K", body: "n=x").bodyFinding == nil)
        guard
            case .refused(let skanBody) = exchange(.post, "/api/v2/conversion_value", headers: json, body: "{}")
                .admission(listing: "L")
        else {
            Issue.record("a JSON body was admitted")
            return
        }
        #expect(skanBody.status == .unsupportedMediaType && skanBody.finding.code == .unsupportedBody)
        // A JSON body's fields are not read as parameters.
        #expect(exchange(.post, "/api/v1/evt", headers: json, body: "a=1").request.parameters.raw("a") == nil)

        guard case .admitted(let endpoint) = exchange(.head, "/api/v1/evt?a=K").admission(listing: "L") else {
            Issue.record("HEAD was refused")
            return
        }
        #expect(endpoint == .event)
    }
}
