import SystemPOSIX
import Testing

@testable import HTTPCore

/// Runs `router` on `request` and returns what it answered.
private func answer(_ router: HTTPRouter, _ method: HTTPMethod, _ target: String) -> HTTPResponse? {
    let captured = Mutex<HTTPResponse?>(nil)
    router.respond(
        to: HTTPRequest(method: method, target: target),
        writer: .capturing { response in
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

    @Test func saysWhetherAPathHasARoute() {
        #expect(router.handles("/a"))
        #expect(router.handles("/devices/QA-1"))
        #expect(!router.handles("/devices/"))
        #expect(!router.handles("/devices/QA-1/x"))
        #expect(!router.handles("/b"))
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
        #expect(text(response) == "method PUT not allowed on /a\n")
        #expect(answer(router, .post, "/devices/x")?.headers["Allow"] == "DELETE, GET, HEAD")
    }

    @Test func answers404InPlainTextByDefault() {
        let response = answer(router, .get, "/devices/x/extra")
        #expect(response?.status == .notFound)
        #expect(response?.headers["Content-Type"] == "text/plain; charset=utf-8")
        #expect(text(answer(router, .get, "/devices/")) == "no route for GET /devices/\n")
    }

    @Test func takesErrorBodiesFromTheApplication() {
        var router = HTTPRouter(
            errorRenderer: HTTPErrorRenderer { status, reason in
                .json("{\"code\":\(status.code),\"why\":\"\(reason)\"}", status: status)
            })
        router.on(.get, "/a") { _, _, writer in writer.send(.json("1")) }
        let missing = answer(router, .get, "/b")
        #expect(missing?.status == .notFound)
        #expect(missing?.headers["Content-Type"] == "application/json")
        #expect(text(missing) == "{\"code\":404,\"why\":\"no route for GET /b\"}")
        let wrongMethod = answer(router, .post, "/a")
        #expect(wrongMethod?.headers["Allow"] == "GET, HEAD")
        #expect(text(wrongMethod) == "{\"code\":405,\"why\":\"method POST not allowed on /a\"}")
    }
}
