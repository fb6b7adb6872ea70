/// The answer to one request plus everything the journal needs to record it. The service decides;
/// the app sends `status`/`body` (or something else, when a fault is injected) and then records it.
public struct SKANOutcome: Sendable {
    /// The endpoint that judged it; nil for a path no endpoint serves (journaled `unmatched`).
    /// A postback is never an outcome: it is a `PostbackExchange`.
    public var endpoint: SKANEndpoint?
    /// Always 200: Singular tells errors in the body.
    public var status: Int
    /// The exact JSON text to send; empty for the SKAN 3 testing endpoint's "no more values".
    public var body: [UInt8]
    public var device: String?
    public var event: String?
    /// The SKAN metadata typed, for the journal's `skan`.
    public var skan: SKANMetadata
    public var window: SKANWindow?
    public var findings: [ValidationFinding]
    /// The clock reading the request was judged at (the journal's `time`).
    public var timeMilliseconds: Int64
    /// The model entries it was counted under in the coverage, for the upstream's verdict.
    public var coverage: CoverageHits? = nil

    public var bodyText: String { String(decoding: body, as: UTF8.self) }

    /// The journal's `endpoint` and the metrics label.
    public var journalEndpoint: JournalEndpoint { endpoint.map(JournalEndpoint.init) ?? .unmatched }

    /// A request turned away before the service judged it (unknown path, wrong method, a body of
    /// the wrong type): identity read from its parameters, no SKAN fields, `findings` saying why.
    /// `endpoint` nil: no endpoint serves its path.
    public static func refused(
        _ endpoint: SKANEndpoint?, _ request: SKANRequest, status: Int, body: [UInt8],
        findings: [ValidationFinding], timeMilliseconds: Int64
    ) -> SKANOutcome {
        let common = CommonParameters(request.parameters)
        return SKANOutcome(
            endpoint: endpoint, status: status, body: body,
            device: endpoint.map { common.device(for: $0) } ?? common.device,
            event: common.event, skan: .none, window: nil, findings: findings,
            timeMilliseconds: timeMilliseconds)
    }
}
