import Dispatch
import HTTPCore
import SKANDomain

/// Singular's endpoints (SPEC §1): `GET` with a query, or `POST` with a form body merged after it.
/// The edge turns the HTTP request into an `SKANRequest` once; the domain does the rest. The answer
/// is journaled before it is sent, so a test that reads the journal right after its request always
/// finds it; an injected fault then changes, delays or withholds what is sent (and says so in the
/// journal entry). A delayed answer waits on a timer, never on a thread.
struct ConversionEndpoints: Sendable {
    let context: AppContext

    func register(on router: inout HTTPRouter) {
        for endpoint in SKANEndpoint.allCases {
            let handler: HTTPRouter.Handler = { request, _, writer in
                self.handle(endpoint, request, writer)
            }
            router.on(.get, endpoint.path, handler: handler)
            router.on(.post, endpoint.path, handler: handler)
        }
    }

    func handle(_ endpoint: SKANEndpoint, _ request: HTTPRequest, _ writer: HTTPResponseWriter) {
        let started = MonotonicClock.microseconds()
        var parameters = FormURLEncoding.pairs(request.query)
        if !request.body.isEmpty {
            guard Self.isFormEncoded(request.headers["Content-Type"]) else {
                writer.send(.jsonError("a POST body must be application/x-www-form-urlencoded", status: .unsupportedMediaType))
                return
            }
            parameters += FormURLEncoding.pairs(request.body)
        }
        let skanRequest = SKANRequest(
            method: request.method.rawValue, path: String(request.path), remote: request.remoteAddress,
            parameters: parameters
        )
        let outcome = context.service.handle(endpoint, skanRequest)
        var status = outcome.status
        var body = outcome.body
        var extra = [JSONMember("clock_offset_s", .int(context.clock.offsetSeconds))]

        let fault = context.faults.decide(for: endpoint)
        if !fault.isEmpty {
            switch fault.answer {
            case .status(let code)?:
                status = code
                body = Array("{\"status\":\"error\",\"reason\":\"fault injected by skan-mock: HTTP \(code)\"}".utf8)
            case .malformedBody?:
                body = Self.malformedBody
            case .emptyBody?:
                body = []
            case .dropConnection?:
                status = 0
                body = []
            case .delay?, nil:
                break
            }
            extra.append(JSONMember("fault", fault.json))
        }
        let duration = MonotonicClock.microseconds() - started
        context.journal.record(
            request: skanRequest, outcome: outcome, status: status, body: body, durationMicros: duration, extra: extra
        )
        context.metrics.record(
            endpoint: endpoint, status: status, findings: outcome.findings, durationMicros: duration,
            fault: fault.answer?.name ?? (fault.delayMilliseconds != nil ? "delay" : nil)
        )

        let isDrop = fault.answer == .dropConnection
        let response = HTTPResponse.json(body, status: HTTPStatus(code: max(status, 100)))
        let reply: @Sendable () -> Void = {
            if isDrop { writer.dropConnection() } else { writer.send(response) }
        }
        if let delay = fault.delayMilliseconds {
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(delay), execute: reply)
        } else {
            reply()
        }
    }

    /// Valid JSON up to the point where it stops: what a truncated or garbled answer looks like.
    static let malformedBody = Array("{\"status\":\"ok\",\"conversion_value\":".utf8)

    /// A form body says so, or says nothing (as `curl -d` and many scripts do not).
    static func isFormEncoded(_ contentType: String?) -> Bool {
        guard let contentType else { return true }
        let mediaType = contentType.split(separator: ";").first?.trimmingASCIIWhitespace() ?? ""
        return mediaType.lowercased() == "application/x-www-form-urlencoded"
    }
}
