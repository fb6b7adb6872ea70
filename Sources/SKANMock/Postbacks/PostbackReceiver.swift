import HTTPCore
import SKANDomain
import SKANReport

/// `POST /.well-known/skadnetwork/report-attribution/` and
/// `POST /.well-known/appattribution/report-attribution/` (with or without the trailing slash),
/// on every listener: where a phone sends the developer's copy of each postback once the app's
/// `NSAdvertisingAttributionReportEndpoint` (or `AttributionCopyEndpoint`) names this server. A
/// postback is answered 200 whatever its verdict, since Apple retries anything else; a body that
/// is not a postback, 400 naming why. Each is verified, compared with the prediction for the
/// device named on its URL, kept (`ReceivedPostbackStore`) and journaled as endpoint `postback`
/// with its typed fields, before the answer goes out, so the admin API has it by then.
/// `?device=ID` on the URL names the device a sender posts for (skan-mock's own tests; a phone
/// names none, and `GET /__admin/postbacks/received?device=ID` compares with it instead).
struct PostbackReceiver: Sendable {
    let scope: TenantScope
    /// The server's: Apple's keys, and the local CA's when HTTPS is on.
    let verifier: PostbackVerifier

    /// What `path` receives; nil for any other path (one byte compared for Singular's paths).
    static func framework(at path: Substring) -> PostbackQuery.Framework? {
        // Compared as bytes: Singular's paths differ at the second, where `hasPrefix` on a
        // Substring walked characters (about 700 instructions on every SKAN request).
        guard path.utf8.starts(with: "/.well-known/".utf8) else { return nil }
        return ReceivedPostback.paths[String(path)]
    }

    /// `path`: the path this tenant reads (after any `/t/NAME`).
    func respond(
        to request: HTTPRequest, path: Substring, framework: PostbackQuery.Framework, writer: HTTPResponseWriter
    ) {
        var parameters = RequestParameters(reservingBytes: request.query.utf8.count)
        FormURLEncoding.forEachField(request.query) { parameters.append(name: $0, value: $1) }
        let skanRequest = SKANRequest(
            method: request.method.rawValue, path: String(path), remote: request.remoteAddress,
            parameters: parameters)
        let device = parameters["device"].flatMap { $0.isEmpty ? nil : $0 }
        guard request.method == .post else {
            let reason =
                "method \(request.method) not allowed on \(path): a postback is POSTed as a JSON body"
            var response = HTTPResponse.jsonError(reason, status: .methodNotAllowed)
            response.headers.set("Allow", "POST")
            record(
                skanRequest, device: device, response: response,
                finding: ValidationFinding(param: "method", code: .methodNotAllowed, message: reason), tls: request)
            writer.send(response)
            return
        }
        switch ReceivedPostback.parse(request.body, framework: framework) {
        case .failure(let rejection):
            let response = HTTPResponse.jsonError(rejection.reason, status: .badRequest)
            record(
                skanRequest, device: device, response: response,
                finding: ValidationFinding(param: "body", code: .postbackMalformed, message: rejection.reason),
                tls: request)
            writer.send(response)
        case .success(let postback):
            writer.send(.json(receive(postback, skanRequest, device: device, request)))
        }
    }

    /// Verifies, compares, journals and keeps `postback`; returns the answer's body.
    private func receive(
        _ postback: ReceivedPostback, _ skanRequest: SKANRequest, device: String?, _ request: HTTPRequest
    )
        -> [UInt8]
    {
        let verdict = verifier.verify(postback)
        var findings: [ValidationFinding] = []
        if verdict.badSignature {
            findings.append(
                ValidationFinding(param: "signature", code: .postbackSignatureInvalid, message: verdict.reason))
        }
        let body = JSONWriter.serialize(
            ["status": "ok", "verified": .bool(verdict.verified), "reason": .string(verdict.reason)] as JSONValue)
        let now = scope.clock.nowMilliseconds()
        let exchange = PostbackExchange(
            request: skanRequest, status: 200, body: body, device: device, findings: findings, timeMilliseconds: now)
        let comparison = PostbackComparison.compare(postback, device: device, predict: Self.predictor(scope))
        let id = ExchangeRecorder(scope).record(
            exchange,
            members: [
                JournalRecord.tlsMember(request.tlsVersion),
                JournalRecord.postbackMember(
                    postback, verdict: verdict, comparison: comparison.verdict, bodyBytes: request.body.count)
            ])
        scope.receivedPostbacks.add(
            ReceivedPostbackStore.Entry(
                id: id, timeMilliseconds: now, path: skanRequest.path, remote: request.remoteAddress,
                device: device, postback: postback, verdict: verdict, bytes: request.body.count),
            body: request.body)
        return body
    }

    /// A device's prediction as `GET /__admin/postbacks/received` makes it (unsigned: only the
    /// values are compared); nil for a device skan-mock does not know.
    static func predictor(_ scope: TenantScope) -> (String, PostbackQuery) -> DevicePostbacks? {
        let route = PostbackRoute(signing: PostbackSigning(unsigned: "compared, not sent"))
        return { id, options in scope.service.device(id).map { route.predict(scope, id, $0, options) } }
    }

    private func record(
        _ request: SKANRequest, device: String?, response: HTTPResponse, finding: ValidationFinding,
        tls: HTTPRequest
    ) {
        let exchange = PostbackExchange(
            request: request, status: response.status.code, body: response.body, device: device, findings: [finding],
            timeMilliseconds: scope.clock.nowMilliseconds())
        ExchangeRecorder(scope).record(exchange, members: [JournalRecord.tlsMember(tls.tlsVersion)])
    }
}
