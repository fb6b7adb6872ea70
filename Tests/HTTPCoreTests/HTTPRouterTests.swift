import Synchronization
import Testing
@testable import HTTPCore

/// Runs `router` on `request` and returns what it answered.
private func answer(_ router: HTTPRouter, _ method: HTTPMethod, _ target: String) -> HTTPResponse? {
    let captured = Mutex<HTTPResponse?>(nil)
    router.respond(to: HTTPRequest(method: method, target: target), writer: .capturing { response in
        captured.withLock { $0 = response }
    })
    return captured.withLock { $0 }
}

private func text(_ response: HTTPResponse?) -> String { String(decoding: response?.body ?? [], as: UTF8.self) }

@Suite("HTTPRouter")
struct HTTPRouterTests {
    private var router: HTTPRouter {
        var router = HTTPRouter()
        router.on(.get, "/a") { _, _, writer in writer.send(.json("\"get a\"")) }
        router.on(.post, "/a") { _, _, writer in writer.send(.json("\"post a\"")) }
        router.on(.get, "/devices/{device}") { _, parameters, writer in
            writer.send(.json("\"device \(parameters["device"] ?? "-")\""))
        }
        router.on(.delete, "/devices/{device}") { _, _, writer in writer.send(.json("\"deleted\"")) }
        return router
    }

    @Test func routesByMethodAndPathIgnoringTheQuery() {
        #expect(text(answer(router, .get, "/a?x=1")) == "\"get a\"")
        #expect(text(answer(router, .post, "/a")) == "\"post a\"")
    }

    @Test func capturesAndDecodesPathParameters() {
        #expect(text(answer(router, .get, "/devices/ABC-123")) == "\"device ABC-123\"")
        #expect(text(answer(router, .get, "/devices/a%2Fb+c")) == "\"device a/b+c\"")
        #expect(text(answer(router, .delete, "/devices/x")) == "\"deleted\"")
    }

    @Test func answersHeadWithTheGetHandler() {
        #expect(text(answer(router, .head, "/a")) == "\"get a\"")
    }

    @Test func answers405WithAllowForAKnownPath() {
        let response = answer(router, .put, "/a")
        #expect(response?.status == .methodNotAllowed)
        #expect(response?.headers["Allow"] == "GET, HEAD, POST")
        #expect(text(response) == "{\"status\":\"error\",\"reason\":\"method PUT not allowed on /a\"}")
        #expect(answer(router, .post, "/devices/x")?.headers["Allow"] == "DELETE, GET, HEAD")
    }

    @Test func answers404WithJSONOtherwise() {
        let response = answer(router, .get, "/devices/x/extra")
        #expect(response?.status == .notFound)
        #expect(response?.headers["Content-Type"] == "application/json")
        #expect(text(answer(router, .get, "/devices/")) == "{\"status\":\"error\",\"reason\":\"no route for GET /devices/\"}")
    }

    @Test func quotesReasonsAsJSON() {
        let response = HTTPResponse.jsonError("bad \"quote\" \\ \n\u{01}", status: .badRequest)
        #expect(text(response) == "{\"status\":\"error\",\"reason\":\"bad \\\"quote\\\" \\\\ \\n\\u0001\"}")
    }
}
