import Dispatch
import HTTPCore
import SKANDomain

/// Everything that is not `/__admin`: Singular's endpoints (SPEC §1), their aliases, and every
/// other path. This is the one place that decides a request's fate, in this order: route, method,
/// body type, fault, state change, journal, answer. Whatever the outcome (an answer, a 404 for a
/// wrong URL, a 405, a 415 for a JSON body, an injected fault), the request is journaled and
/// counted, so a QA engineer sees what the app really sent.
///
/// The answer is journaled before it is sent, so a test that reads the journal right after its
/// request always finds it. A delayed answer waits on a timer, never on a thread, and is journaled
/// when it is sent (or as not sent, when the server stops during the delay).
struct SingularEndpoints: Sendable {
    let context: AppContext
    let routes: SingularRoutes

    static let allowedMethods: Set<HTTPMethod> = [.get, .head, .post]

    func handle(_ request: HTTPRequest, _ writer: HTTPResponseWriter) {
        let started = MonotonicClock.microseconds()
        let path = String(request.path)
        let query = request.query
        let bodyIsForm = request.body.isEmpty || Self.isFormEncoded(request.headers["Content-Type"])
        let formBody = bodyIsForm ? request.body : []
        let route = routes.route(at: path)
        var parameters = RequestParameters(reservingBytes: query.utf8.count + formBody.count)
        FormURLEncoding.forEachField(query) { parameters.append(name: $0, value: $1) }
        if !formBody.isEmpty { FormURLEncoding.forEachField(formBody) { parameters.append(name: $0, value: $1) } }
        // An alias adds what the app's back end would (the client's own value wins), and the
        // journal says which were added, apart from the parameters as sent.
        var added: [JSONMember] = []
        for parameter in route?.added ?? [] where parameters.addIfAbsent(name: parameter.name, value: parameter.value) {
            added.append(JSONMember(parameter.name, .string(parameter.value)))
        }
        let routeMembers = added.isEmpty ? [] : [JSONMember("route_params", .object(added))]
        let skanRequest = SKANRequest(
            method: request.method.rawValue, path: path, remote: request.remoteAddress,
            parameters: parameters)

        // 1. Route: a path no endpoint serves is a wrong URL in the app or its back end.
        guard let endpoint = route?.endpoint else {
            let reason = "no Singular endpoint at \(path); skan-mock serves \(routes.listing)"
            refuse(
                .unmatched, skanRequest, status: .notFound, reason: reason,
                finding: ValidationFinding(param: "path", code: .unknownEndpoint, message: reason),
                started: started, tls: Self.tls(request), writer)
            return
        }
        // 2. Method.
        guard Self.allowedMethods.contains(request.method) else {
            let reason =
                "method \(request.method) not allowed on \(path); Singular's endpoints take GET (and POST with a form body)"
            refuse(
                endpoint, skanRequest, status: .methodNotAllowed, reason: reason,
                finding: ValidationFinding(param: "method", code: .methodNotAllowed, message: reason),
                started: started, tls: Self.tls(request), extra: routeMembers, writer, allow: "GET, HEAD, POST")
            return
        }
        // 3. Body type: Singular documents query parameters; a JSON body is a client mistake.
        guard bodyIsForm else {
            let type = request.headers["Content-Type"] ?? "no Content-Type"
            let reason =
                "the request has a body of type \(type); Singular's endpoints take their parameters in the query string (GET \(path)?a=KEY&...), or as an application/x-www-form-urlencoded POST body"
            refuse(
                endpoint, skanRequest, status: .unsupportedMediaType, reason: reason,
                finding: ValidationFinding(param: "Content-Type", code: .unsupportedBody, message: reason),
                started: started, tls: Self.tls(request), extra: routeMembers, writer)
            return
        }
        // 4. Fault: decided first, so that a request whose answer a fault replaces leaves the
        //    device's state as it was (the client's retry gets the answer this one would have had).
        let baseExtra =
            [JSONMember("clock_offset_s", .int(context.clock.offsetSeconds)), Self.tls(request)] + routeMembers
        if let upstream = context.upstream, upstream.options.mode == .proxy {
            // The client gets production's answer; the model's is computed beside it.
            proxy(
                request, skanRequest, endpoint, upstream, added: route?.added ?? [], extra: baseExtra, started: started,
                writer)
            return
        }
        var notRecorded: ValidationFinding?
        if let replay = context.replay {
            // A recorded answer for this device and state is production's: served as recorded.
            let device = CommonParameters(parameters).device(for: endpoint)
            let key = ReplayKey(
                endpoint: endpoint, parameters: parameters, nowMilliseconds: context.clock.nowMilliseconds())
            if let key, let answer = replay.take(device: device, key: key) {
                self.replay(answer, skanRequest, endpoint, extra: baseExtra, started: started, writer)
                return
            }
            notRecorded = key.map { replay.notRecorded(device: device, key: $0) }
        }
        let fault = context.faults.decide(for: endpoint)
        // 5. State change, with the service's answer.
        var handled = context.service.handle(endpoint, skanRequest, commit: fault.answer == nil)
        if let notRecorded { handled.findings.append(notRecorded) }
        let outcome = handled
        var status = outcome.status
        var body = outcome.body
        var extra = baseExtra
        if context.replay != nil { extra.append(JSONMember("replayed", .bool(false))) }
        if !fault.isEmpty {
            switch fault.answer {
            case .status(let code)?:
                status = code
                body = SKANResponse.error("fault injected by skan-mock: HTTP \(code)")
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
        // 6. Journal and metrics, then 7. the answer.
        let duration = MonotonicClock.microseconds() - started
        let faultName = fault.answer?.name ?? (fault.delayMilliseconds != nil ? "delay" : nil)
        let isDrop = fault.answer == .dropConnection
        let response = HTTPResponse.json(body, status: HTTPStatus(code: max(status, 100)))
        if let upstream = context.upstream {
            // Shadow: the client is answered now; the entry waits for the upstream's answer (at
            // most the upstream timeout) so that it holds both.
            reply(response, drop: isDrop, delay: fault.delayMilliseconds, writer)
            let (status, body, extra) = (status, body, extra)
            upstream.forward(request, endpoint: endpoint, added: route?.added ?? [], inArrivalOrder: true) {
                [context] upstreamReply in
                var outcome = outcome
                outcome.findings += Self.findings(
                    comparing: (outcome.status, outcome.body), with: upstreamReply, service: context.service, outcome)
                context.journal.record(
                    request: skanRequest, outcome: outcome, status: status, body: body, durationMicros: duration,
                    extra: extra + [JSONMember("upstream", upstreamReply.json)])
                context.metrics.record(
                    endpoint: endpoint, status: status, findings: outcome.findings, durationMicros: duration,
                    fault: faultName)
            }
            return
        }
        if let delay = fault.delayMilliseconds {
            // Journaled when it is sent, or as not sent when the server stops first.
            let (status, body, extra) = (status, body, extra)
            context.delays.schedule(after: delay) { [context] answered in
                var sentStatus = status
                var members = extra
                if !answered {
                    sentStatus = 0
                    members.append(
                        JSONMember(
                            "not_sent",
                            .string("the server stopped during the \(delay) ms delay; the client got no answer")))
                }
                context.journal.record(
                    request: skanRequest, outcome: outcome, status: sentStatus, body: answered ? body : [],
                    durationMicros: duration, extra: members)
                context.metrics.record(
                    endpoint: endpoint, status: sentStatus, findings: outcome.findings, durationMicros: duration,
                    fault: faultName)
                if answered { Self.reply(response, drop: isDrop, writer) }
            }
            return
        }
        context.journal.record(
            request: skanRequest, outcome: outcome, status: status, body: body, durationMicros: duration, extra: extra
        )
        context.metrics.record(
            endpoint: endpoint, status: status, findings: outcome.findings, durationMicros: duration, fault: faultName
        )
        reply(response, drop: isDrop, delay: nil, writer)
    }

    /// Sends the answer, or drops the connection, now or after an injected delay (a timer, never a
    /// blocked thread).
    private func reply(_ response: HTTPResponse, drop: Bool, delay: Int?, _ writer: HTTPResponseWriter) {
        if let delay {
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(delay)) {
                Self.reply(response, drop: drop, writer)
            }
        } else {
            Self.reply(response, drop: drop, writer)
        }
    }

    private static func reply(_ response: HTTPResponse, drop: Bool, _ writer: HTTPResponseWriter) {
        if drop { writer.dropConnection() } else { writer.send(response) }
    }

    /// What the comparison with the upstream found: a difference the app would notice, or the
    /// upstream's failure. An answer the upstream gave also goes to the coverage, under the model
    /// entries that answered `outcome`, as matched or not.
    static func findings(
        comparing model: (status: Int, body: [UInt8]), with reply: Upstream.Reply,
        service: ConversionService, _ outcome: SKANOutcome
    ) -> [ValidationFinding] {
        switch reply {
        case .answered(let status, let body, _):
            let difference = UpstreamComparison.finding(model: model, upstream: (status, body))
            service.recordUpstream(outcome, matched: difference == nil)
            return difference.map { [$0] } ?? []
        case .failed(let code, let reason, _):
            return [UpstreamComparison.failure(code, reason: reason)]
        }
    }

    /// `--upstream-mode proxy`: the upstream answers the client (status and body as received, or a
    /// 502 in Singular's shape when it cannot); the model's answer is computed beside it, and the
    /// device's state follows what the client got.
    private func proxy(
        _ request: HTTPRequest, _ skanRequest: SKANRequest, _ endpoint: SKANEndpoint, _ upstream: Upstream,
        added: [RouteAlias.Parameter], extra: [JSONMember], started: Int64, _ writer: HTTPResponseWriter
    ) {
        upstream.forward(request, endpoint: endpoint, added: added) { [context] upstreamReply in
            let status: Int
            let body: [UInt8]
            var outcome: SKANOutcome
            switch upstreamReply {
            case .answered(let upstreamStatus, let upstreamBody, _):
                status = upstreamStatus
                body = upstreamBody
                let adopted = AppliedAnswer(status: upstreamStatus, body: upstreamBody) ?? AppliedAnswer(ok: false)
                outcome = context.service.handle(endpoint, skanRequest, commit: true, adopting: adopted)
            case .failed(_, let reason, _):
                status = 502
                body = SKANResponse.error("skan-mock could not get the upstream's answer: \(reason)")
                outcome = context.service.handle(endpoint, skanRequest, commit: false)
            }
            let model = JSONValue.object([
                JSONMember("status", .int(Int64(outcome.status))),
                JSONMember("body", .string(String(decoding: outcome.body, as: UTF8.self)))
            ])
            outcome.findings += Self.findings(
                comparing: (outcome.status, outcome.body), with: upstreamReply, service: context.service, outcome)
            let duration = MonotonicClock.microseconds() - started
            context.journal.record(
                request: skanRequest, outcome: outcome, status: status, body: body, durationMicros: duration,
                extra: extra + [JSONMember("upstream", upstreamReply.json), JSONMember("model", model)])
            context.metrics.record(
                endpoint: endpoint, status: status, findings: outcome.findings, durationMicros: duration, fault: nil)
            writer.send(HTTPResponse.json(body, status: HTTPStatus(code: max(status, 100))))
        }
    }

    /// `--replay`: the recorded answer goes to the client, status and body as production sent
    /// them; the model's is journaled beside it, and the device's state follows the recorded one
    /// (as in proxy mode). Faults do not replace a recorded answer.
    private func replay(
        _ answer: Replay.Answer, _ skanRequest: SKANRequest, _ endpoint: SKANEndpoint,
        extra: [JSONMember], started: Int64, _ writer: HTTPResponseWriter
    ) {
        let adopted = AppliedAnswer(status: answer.status, body: answer.body) ?? AppliedAnswer(ok: false)
        let outcome = context.service.handle(endpoint, skanRequest, commit: true, adopting: adopted)
        let model = JSONValue.object([
            JSONMember("status", .int(Int64(outcome.status))),
            JSONMember("body", .string(String(decoding: outcome.body, as: UTF8.self)))
        ])
        var members = extra + [JSONMember("replayed", .bool(true)), JSONMember("model", model)]
        if let id = answer.journalId { members.append(JSONMember("recorded_id", .int(id))) }
        let duration = MonotonicClock.microseconds() - started
        context.journal.record(
            request: skanRequest, outcome: outcome, status: answer.status, body: answer.body,
            durationMicros: duration, extra: members)
        context.metrics.record(
            endpoint: endpoint, status: answer.status, findings: outcome.findings, durationMicros: duration, fault: nil)
        writer.send(HTTPResponse.json(answer.body, status: HTTPStatus(code: answer.status)))
    }

    /// Answers an HTTP-level refusal in Singular's error shape, journaled with the finding that
    /// says what the client did; the device's state is not touched.
    private func refuse(
        _ endpoint: SKANEndpoint, _ request: SKANRequest, status: HTTPStatus, reason: String,
        finding: ValidationFinding, started: Int64, tls: JSONMember, extra: [JSONMember] = [],
        _ writer: HTTPResponseWriter,
        allow: String? = nil
    ) {
        var response = HTTPResponse.jsonError(reason, status: status)
        if let allow { response.headers.set("Allow", allow) }
        let outcome = SKANOutcome.refused(
            endpoint, request, status: status.code, body: response.body,
            findings: [finding], timeMilliseconds: context.clock.nowMilliseconds())
        let duration = MonotonicClock.microseconds() - started
        context.journal.record(
            request: request, outcome: outcome, status: status.code, body: response.body, durationMicros: duration,
            extra: [JSONMember("clock_offset_s", .int(context.clock.offsetSeconds)), tls] + extra
        )
        context.metrics.record(
            endpoint: endpoint, status: status.code, findings: [finding], durationMicros: duration, fault: nil)
        writer.send(response)
    }

    /// Journals an answer the server gave on its own (400, 408, 413, 414, 431) to a request for one
    /// of the endpoints, with the finding that says what happened: the client never learns why
    /// from Singular's shape alone, and the QA engineer sees the request that did not make it.
    func journal(_ refusal: HTTPRefusal) {
        let path = String(refusal.path)
        guard let route = routes.route(at: path) else { return }
        var parameters = RequestParameters(reservingBytes: refusal.query.utf8.count)
        FormURLEncoding.forEachField(refusal.query) { parameters.append(name: $0, value: $1) }
        for parameter in route.added { parameters.addIfAbsent(name: parameter.name, value: parameter.value) }
        let request = SKANRequest(
            method: refusal.method, path: path, remote: refusal.remoteAddress, parameters: parameters)
        let code: FindingCode =
            switch refusal.status.code {
            case 408: .requestTimeout
            case 413, 414, 431: .requestTooLarge
            default: .malformedRequest
            }
        let message =
            "the server answered \(refusal.status.code) (\(refusal.reason)) before \(route.endpoint.path) saw the request"
            + (code == .requestTimeout && !refusal.headers.isEmpty
                ? "; its head arrived but not all of its body (a client that re-sends a POST without its body after a dropped connection does this)"
                : "")
        let finding = ValidationFinding(param: "request", code: code, message: message)
        let body = HTTPResponse.jsonError(refusal.reason, status: refusal.status).body
        let outcome = SKANOutcome.refused(
            route.endpoint, request, status: refusal.status.code, body: body,
            findings: [finding], timeMilliseconds: context.clock.nowMilliseconds())
        context.journal.record(
            request: request, outcome: outcome, status: refusal.status.code, body: body, durationMicros: 0,
            extra: [
                JSONMember("clock_offset_s", .int(context.clock.offsetSeconds)),
                JSONMember("tls", refusal.tlsVersion.map { .string($0) } ?? .null)
            ])
        context.metrics.record(
            endpoint: route.endpoint, status: refusal.status.code, findings: [finding], durationMicros: 0, fault: nil)
    }

    /// `"tls": "TLSv1.3"` for a request that came over HTTPS, `null` for plain HTTP.
    static func tls(_ request: HTTPRequest) -> JSONMember {
        JSONMember("tls", request.tlsVersion.map { .string($0) } ?? .null)
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
