import HTTPCore
import SKANDomain

/// `skan-mock check CAPTURE.har`'s judge: each captured request to one of Singular's endpoints
/// goes through the very stages a live one does here (`SingularExchange`: route, aliases, method,
/// body type; then the parameters' validation and the device's state), and Singular's answer, as
/// captured, is adopted into that state as `--upstream-mode proxy` adopts production's. The result
/// is a journal entry of a proxy run, so `report`'s and `compare`'s code read it unchanged.
/// Requests must be given in the capture's time order: a device's findings depend on its past.
public struct CaptureJudge: Sendable {
    private let routes: SingularRoutes
    private let service: ConversionService
    private let compare: Bool

    /// `model`: the team's model, to compare Singular's answers with (each entry then carries the
    /// model's answer and a `differs_from_upstream` finding where they differ); without it the
    /// bundled model stands in for the reading of the requests alone, and nothing is compared.
    public init(aliases: [RouteAlias], model: ConversionModel?) {
        routes = SingularRoutes(aliases: aliases)
        compare = model != nil
        service = ConversionService(
            model: model ?? .builtIn, clock: ManualClock(milliseconds: 0), deviceCapacity: 1_000_000)
    }

    /// The path a captured request is judged at: its own, or the one under `/t/NAME` (a capture of
    /// an app pointed at a skan-mock tenant, or a HAR that skan-mock exported from one).
    static func innerPath(_ path: String) -> String {
        guard path.hasPrefix("/t/") else { return path }
        let rest = path.dropFirst(3)
        guard let slash = rest.firstIndex(of: "/"), TenantName.isValid(rest[..<slash].utf8) else { return path }
        return String(rest[slash...])
    }

    /// Whether the capture's request went to one of Singular's endpoints (or an alias), on any host.
    public func isSingular(_ exchange: HARExchange) -> Bool {
        routes.route(at: Self.innerPath(exchange.path)) != nil
    }

    /// The captured exchange as a journal entry, judged, its id the entry's place in the capture
    /// (from 1, as `check` names entries); nil for a path no endpoint serves.
    public func judge(_ exchange: HARExchange) -> JournalRecord? {
        let path = Self.innerPath(exchange.path)
        guard routes.route(at: path) != nil else { return nil }
        var headers = HTTPHeaders()
        for header in exchange.requestHeaders { headers.add(header.name, header.value) }
        let http = HTTPRequest(
            method: HTTPMethod(rawValue: exchange.method.uppercased()),
            target: exchange.query.isEmpty ? path : path + "?" + exchange.query, headers: headers,
            body: exchange.requestBody)
        let singular = SingularExchange(http, routes: routes, clockOffsetSeconds: 0, started: 0)
        // A status under 100 is a tool's way to say the request got no answer (failed, or pending).
        let answered =
            exchange.status >= 100 ? exchange.responseBody.map { (status: exchange.status, body: $0) } : nil
        var outcome: SKANOutcome
        switch singular.admission(listing: routes.listing) {
        case .refused(let refusal):
            outcome = SKANOutcome.refused(
                refusal.endpoint, singular.request, status: refusal.status.code,
                body: SKANResponse.error(refusal.reason), findings: [refusal.finding],
                timeMilliseconds: exchange.started)
        case .admitted(let endpoint):
            // As `--resume` adopts a journaled answer: one Singular gave with 200 changed the device,
            // as the app acted on it; one the capture lacks, or an error, did not.
            let adopted = answered.map { AppliedAnswer.received(status: $0.status, body: $0.body) }
            outcome = service.handle(
                endpoint, singular.request, commit: answered?.status == 200, adopting: adopted,
                at: exchange.started)
        }
        if let finding = singular.bodyFinding { outcome.findings.insert(finding, at: 0) }
        var members = singular.members
        if let answered {
            // Singular's answer as the upstream's, as a proxy run journals production's: what
            // `compare` compares and `record` freezes.
            members.append(
                JournalRecord.upstreamMember(
                    .answered(
                        .init(status: answered.status, body: answered.body),
                        durationMicros: exchange.durationMicros)))
            if compare {
                members.append(SingularAnswer.modelMember(outcome))
                if let difference = UpstreamComparison.finding(
                    model: (outcome.status, outcome.body), upstream: (answered.status, answered.body))
                {
                    outcome.findings.append(difference)
                }
            }
        }
        return JournalRecord.judged(
            id: Int64(exchange.index) + 1, request: singular.request, outcome: outcome, status: answered?.status ?? 0,
            body: answered?.body ?? [], durationMicros: exchange.durationMicros ?? 0,
            extra: members)
    }
}
