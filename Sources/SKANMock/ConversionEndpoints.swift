import HTTPCore
import SKANDomain

/// Singular's endpoints (SPEC §1): `GET` with a query, or `POST` with a form body merged after it.
/// The edge turns the HTTP request into an `SKANRequest` once; the domain does the rest; the
/// answer is journaled before it is sent, so a test that reads the journal right after its
/// request always finds it.
struct ConversionEndpoints: Sendable {
    let service: ConversionService
    let journal: Journal

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
        let outcome = service.handle(endpoint, skanRequest)
        let status = HTTPStatus(code: outcome.status)
        journal.record(
            request: skanRequest, outcome: outcome, status: outcome.status, body: outcome.body,
            durationMicros: MonotonicClock.microseconds() - started, extra: []
        )
        writer.send(.json(outcome.body, status: status))
    }

    /// A form body says so, or says nothing (as `curl -d` and many scripts do not).
    static func isFormEncoded(_ contentType: String?) -> Bool {
        guard let contentType else { return true }
        let mediaType = contentType.split(separator: ";").first.map { $0.trimmingCharacters() } ?? ""
        return mediaType.lowercased() == "application/x-www-form-urlencoded"
    }
}

extension Substring {
    func trimmingCharacters() -> String {
        var slice = self
        while slice.first == " " || slice.first == "\t" { slice.removeFirst() }
        while slice.last == " " || slice.last == "\t" { slice.removeLast() }
        return String(slice)
    }
}
