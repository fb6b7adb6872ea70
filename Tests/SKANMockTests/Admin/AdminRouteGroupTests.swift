import HTTPCore
import SKANDomain
import SystemPOSIX
import Testing

@testable import SKANMock

/// One door for the admin side (issue 33 step 3): every route registered through the group passes
/// the guard, then the token unless it was registered open; in process, without sockets.
@Suite("Admin route group")
struct AdminRouteGroupTests {
    private func server(token: String?) throws -> SKANMockServer {
        var options = ServerOptions()
        options.port = 0
        options.watchModel = false
        options.adminToken = token
        return try SKANMockServer(options: options)
    }

    private func status(
        _ server: SKANMockServer, _ target: String, method: HTTPMethod = .get, host: String = "127.0.0.1:8080",
        bearer: String? = nil, body: String = ""
    ) -> Int {
        var headers = HTTPHeaders()
        headers.add("Host", host)
        if let bearer { headers.add("Authorization", "Bearer \(bearer)") }
        let captured = Mutex<HTTPResponse?>(nil)
        server.responder.respond(
            to: HTTPRequest(
                method: method, target: target, headers: headers, body: Array(body.utf8), remoteAddress: "127.0.0.1:1"),
            writer: .capturing { response in captured.withLock { $0 = response } })
        return captured.withLock { $0 }?.status.code ?? 0
    }

    /// One route of each collection, the event stream and an unknown admin path.
    static let tokenRoutes = [
        "/__admin/health", "/__admin/requests/count", "/__admin/report", "/__admin/devices/X", "/__admin/model",
        "/__admin/faults", "/__admin/clock", "/__admin/events?since_id=x", "/__admin/nothing-here"
    ]
    static let openRoutes = [
        "/", "/favicon.ico", "/__admin/ui", "/__admin/ui/console.js", "/__admin/phone", "/__admin/ca.pem"
    ]

    @Test func theTokenGuardsEveryRouteButTheOpenOnes() throws {
        let mock = try server(token: "T")
        for route in Self.tokenRoutes {
            #expect(status(mock, route) == 401, "\(route)")
            #expect(status(mock, route, bearer: "wrong") == 401, "\(route)")
            #expect(status(mock, route, bearer: "T") != 401, "\(route)")
        }
        #expect(status(mock, "/__admin/reset", method: .post) == 401)
        #expect(status(mock, "/__admin/reset", method: .post, bearer: "T") == 200)
        for route in Self.openRoutes { #expect(status(mock, route) != 401, "\(route)") }
        // Singular's side never asks for it.
        #expect(status(mock, "/api/v2/conversion_value?a=K&idfv=D&n=x") == 200)
    }

    @Test func anEmptyTokenIsNone() throws {
        let mock = try server(token: "")
        for route in Self.tokenRoutes.dropLast() { #expect(status(mock, route) != 401, "\(route)") }
    }

    @Test func theGuardComesFirstForEveryRouteOpenOrNot() throws {
        let mock = try server(token: "T")
        for route in Self.tokenRoutes + Self.openRoutes {
            #expect(status(mock, route, host: "rebound.example:8080", bearer: "T") == 421, "\(route)")
        }
    }

    /// One producer of error bodies: a rejected model's is the usual one with `problems` added.
    @Test func aRejectedModelHasTheUsualErrorBodyWithProblems() throws {
        let mock = try server(token: nil)
        let captured = Mutex<HTTPResponse?>(nil)
        mock.responder.respond(
            to: HTTPRequest(
                method: .put, target: "/__admin/model", body: Array(#"{"skan3": 7}"#.utf8),
                remoteAddress: "127.0.0.1:1"),
            writer: .capturing { response in captured.withLock { $0 = response } })
        let body = String(decoding: try #require(captured.withLock { $0 }).body, as: UTF8.self)
        #expect(body.hasPrefix(#"{"status":"error","reason":""#))
        #expect(body.contains(#","problems":[{"path":"$"#))
        let json = try JSONParser.parse(Array(body.utf8))
        #expect(json["problems"]?.arrayValue?.allSatisfy { $0["reason"]?.stringValue?.isEmpty == false } == true)
    }

    @Test func aClockBodyThatIsNotJSONSaysWhy() throws {
        let mock = try server(token: nil)
        let captured = Mutex<HTTPResponse?>(nil)
        mock.responder.respond(
            to: HTTPRequest(
                method: .put, target: "/__admin/clock", body: Array("{offset_s: 5}".utf8),
                remoteAddress: "127.0.0.1:1"),
            writer: .capturing { response in captured.withLock { $0 = response } })
        let json = try JSONParser.parse(try #require(captured.withLock { $0 }).body)
        #expect(json["reason"]?.stringValue?.hasPrefix("the body is not JSON (") == true)
    }
}
