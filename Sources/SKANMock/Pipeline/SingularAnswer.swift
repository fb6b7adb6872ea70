import HTTPCore
import SKANDomain

/// What an answer source decided for one request (stage 2): what the client gets and how (now,
/// after a delay, or a dropped connection), and what its journal entry says beside the request.
/// Delivery (stage 3) and the recorder (stage 4) work on this alone, whoever answered.
struct SingularAnswer: Sendable {
    /// The service's view of the request: the model's answer, the findings, the device's state.
    var outcome: SKANOutcome
    /// What the client is sent (0: the connection is dropped).
    var status: Int
    var body: [UInt8]
    /// The entry's members after the request's own (`SingularExchange.members`): `fault`,
    /// `replayed`, `model`, `upstream`...
    var members: [JSONMember] = []
    /// Time to compute the answer, from arrival; injected delays are not counted.
    var durationMicros: Int64
    /// An injected `delay`: the answer waits this long (`PendingDelays`).
    var delayMilliseconds: Int? = nil
    /// The fault counted in the metrics (`skan_mock_faults_total{type=...}`).
    var faultName: String? = nil
    /// The `Allow` header of a 405.
    var allow: String? = nil
    /// Shadow mode: the entry also waits for the upstream's reply, in arrival order.
    var comparison: ShadowComparison? = nil

    /// A `drop` fault: the connection is closed instead of answered (`status` 0).
    var drops = false

    var response: HTTPResponse {
        var response = HTTPResponse.json(body, status: HTTPStatus(code: max(status, 100)))
        if let allow { response.headers.set("Allow", allow) }
        return response
    }

    /// Why a request is answered at the HTTP level, not by a source: a wrong path, method or body.
    struct Refusal: Sendable {
        /// nil: no endpoint serves the path (journaled `unmatched`).
        var endpoint: SKANEndpoint?
        var status: HTTPStatus
        var reason: String
        var finding: ValidationFinding
        var allow: String? = nil
    }

    /// A refusal in Singular's error shape, with the finding that says what the client did; the
    /// device's state is not touched.
    static func refused(_ refusal: Refusal, _ exchange: SingularExchange, nowMilliseconds: Int64) -> SingularAnswer {
        let body = SKANResponse.error(refusal.reason)
        let outcome = SKANOutcome.refused(
            refusal.endpoint, exchange.request, status: refusal.status.code, body: body,
            findings: [refusal.finding], timeMilliseconds: nowMilliseconds)
        return SingularAnswer(
            outcome: outcome, status: refusal.status.code, body: body, durationMicros: exchange.elapsedMicros,
            allow: refusal.allow)
    }

    /// `"model": {"status", "body"}`: what the model would have answered, where another answered.
    static func modelMember(_ outcome: SKANOutcome) -> JSONMember {
        JournalRecord.modelMember(.init(status: outcome.status, body: outcome.body))
    }
}
