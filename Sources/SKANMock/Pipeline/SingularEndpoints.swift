import HTTPCore
import SKANDomain

/// Everything that is not `/__admin`: Singular's endpoints (SPEC §1), their aliases, and every
/// other path, in four stages that each do one thing whatever the mode:
/// 1. read the request once (`SingularExchange`), and refuse a wrong path, method or body type;
/// 2. the answer source the server was started with decides the answer (`AnswerSource`: the
///    model, a replay file, the upstream as a proxy, or the model shadowed by the upstream);
/// 3. deliver it: now, after an injected delay, or as a dropped connection (`AnswerDelivery`);
/// 4. record it: journal and metrics, once (`ExchangeRecorder`).
/// Whatever the outcome (an answer, a 404 for a wrong URL, a 405, a 415 for a JSON body, an
/// injected fault), the request is journaled and counted, so a QA engineer sees what the app
/// really sent.
///
/// Journal order: an entry's id is its place in the order the devices' states changed, which
/// `--resume` and `skan-mock report` rely on when they rebuild a device from its entries in id
/// order. With the model, a replay file or a shadowing upstream that is the order requests
/// arrived in, whatever order the upstream answers in; in proxy mode a request changes its
/// device when the upstream's answer comes, and is journaled then.
struct SingularEndpoints: Sendable {
    let tenant: Tenant
    let routes: SingularRoutes
    private let source: any AnswerSource
    private let delivery: AnswerDelivery
    private let recorder: ExchangeRecorder

    static let allowedMethods: Set<HTTPMethod> = [.get, .head, .post]

    /// One tenant's Singular side, over the server's answer mode, delays and journal.
    init(tenant: Tenant, server: ServerComponents, routes: SingularRoutes) {
        self.tenant = tenant
        self.routes = routes
        source = server.answerMode.source(for: tenant)
        delivery = AnswerDelivery(delays: server.delays)
        recorder = ExchangeRecorder(journal: server.journal, metrics: tenant.metrics, tenant: tenant.name)
    }

    /// `path`: the path this tenant reads (after any `/t/NAME`).
    func handle(_ request: HTTPRequest, path: Substring, _ writer: HTTPResponseWriter) {
        let exchange = SingularExchange(
            request, path: path, routes: routes, clockOffsetSeconds: tenant.clock.offsetSeconds,
            started: MonotonicClock.microseconds())
        let (delivery, recorder) = (self.delivery, self.recorder)
        switch exchange.admission(listing: routes.listing) {
        case .refused(let refusal):
            let answer = SingularAnswer.refused(refusal, exchange, nowMilliseconds: tenant.clock.nowMilliseconds())
            delivery.deliver(answer, to: writer) { recorder.record(exchange, answer, $0) }
        case .admitted(let endpoint):
            source.answer(exchange, endpoint: endpoint) { answer in
                delivery.deliver(answer, to: writer) { recorder.record(exchange, answer, $0) }
            }
        }
    }

    /// Journals an answer the server gave on its own (400, 408, 413, 414, 431) to a request for one
    /// of the endpoints, with the finding that says what happened: the client never learns why
    /// from Singular's shape alone, and the QA engineer sees the request that did not make it.
    /// `note`: why this tenant journals it, added to the finding.
    func journal(_ refusal: HTTPRefusal, note: String? = nil) {
        let path = String(refusal.path)
        guard let route = routes.route(at: path) else { return }
        var parameters = RequestParameters(reservingBytes: refusal.query.utf8.count)
        FormURLEncoding.forEachField(refusal.query) { parameters.append(name: $0, value: $1) }
        _ = parameters.add(route.added)
        let request = SKANRequest(
            method: refusal.method, path: path, remote: refusal.remoteAddress, parameters: parameters)
        let code: FindingCode =
            switch refusal.status.code {
            case _ where refusal.clientLeft: .requestAbandoned
            case 408: .requestTimeout
            case 413, 414, 431: .requestTooLarge
            default: .malformedRequest
            }
        let message =
            refusal.clientLeft
            ? "\(refusal.reason), so \(route.endpoint.path) never saw the request and nothing was answered"
            : "the server answered \(refusal.status.code) (\(refusal.reason)) before \(route.endpoint.path) saw the request"
                + (code == .requestTimeout && !refusal.headers.isEmpty
                    ? "; its head arrived but not all of its body (a client that re-sends a POST without its body after a dropped connection does this)"
                    : "")
        let finding = ValidationFinding(
            param: "request", code: code, message: note.map { message + "; " + $0 } ?? message)
        let body = refusal.clientLeft ? [] : SKANResponse.error(refusal.reason)
        let outcome = SKANOutcome.refused(
            route.endpoint, request, status: refusal.status.code, body: body,
            findings: [finding], timeMilliseconds: tenant.clock.nowMilliseconds())
        recorder.record(
            request,
            refused: SingularAnswer(outcome: outcome, status: refusal.status.code, body: body, durationMicros: 0),
            members: [
                JournalRecord.clockOffsetMember(tenant.clock.offsetSeconds),
                SingularExchange.tls(refusal.tlsVersion)
            ])
    }
}
