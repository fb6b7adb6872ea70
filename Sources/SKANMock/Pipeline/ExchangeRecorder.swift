import SKANDomain

/// Stage 4: the one place an exchange is journaled and counted, whatever answered it and however
/// it went out: a request to Singular's side, and a postback received or sent. Each is recorded
/// exactly once: the journal's entry and the metrics' count always agree.
struct ExchangeRecorder: Sendable {
    let journal: Journal
    let metrics: TenantMetrics
    /// The tenant whose requests these are (nil: the default tenant).
    let tenant: String?

    init(journal: Journal, metrics: TenantMetrics, tenant: String?) {
        self.journal = journal
        self.metrics = metrics
        self.tenant = tenant
    }

    /// The recorder of the tenant of `scope`.
    init(_ scope: TenantScope) {
        self.init(journal: scope.journal, metrics: scope.metrics, tenant: scope.name)
    }

    /// Records a postback received at the tenant's receiver paths or sent by its sender: an
    /// exchange of its own kind, with no Singular answer. Returns the entry's id.
    @discardableResult
    func record(_ postback: PostbackExchange, members: [JSONMember]) -> Int64 {
        let id = journal.record(postback: postback, extra: members, tenant: tenant)
        metrics.record(
            endpoint: .postback, status: postback.status, findings: postback.findings, durationMicros: 0, fault: nil)
        return id
    }

    /// Records `answer` to `exchange` once it is known what became of it; a shadowed answer waits
    /// for the upstream's reply too, and its turn in arrival order (`ShadowComparison`).
    /// A body Singular ignores (`SingularExchange.bodyFinding`) is said first: it is the cause of
    /// whatever else the entry finds missing.
    func record(_ exchange: SingularExchange, _ answer: SingularAnswer, _ result: AnswerDelivery.Result) {
        // Copied only when there is a finding to add: a copy of the answer is a retain and a
        // release of each of its references, on every request.
        guard let finding = exchange.bodyFinding else { return recordAnswer(exchange, answer, result) }
        var found = answer
        found.outcome.findings.insert(finding, at: 0)
        recordAnswer(exchange, found, result)
    }

    private func recordAnswer(_ exchange: SingularExchange, _ answer: SingularAnswer, _ result: AnswerDelivery.Result) {
        guard let comparison = answer.comparison else {
            write(exchange.request, answer, members: exchange.members + answer.members, result)
            return
        }
        comparison.delivered(result) { result, addition in
            var answer = answer
            answer.outcome.findings += addition.findings
            write(exchange.request, answer, members: exchange.members + answer.members + addition.members, result)
        }
    }

    /// Records a request the HTTP layer refused before any stage saw it (400, 408, 413...).
    func record(_ request: SKANRequest, refused answer: SingularAnswer, members: [JSONMember]) {
        write(request, answer, members: members, .delivered)
    }

    private func write(
        _ request: SKANRequest, _ answer: SingularAnswer, members: [JSONMember], _ result: AnswerDelivery.Result
    ) {
        var status = answer.status
        var body = answer.body
        var members = members
        if case .notSent(let why) = result {
            status = 0
            body = []
            members.append(JournalRecord.notSentMember(why))
        }
        commit(
            request, answer.outcome, status: status, body: body, durationMicros: answer.durationMicros, members,
            fault: answer.faultName)
    }

    /// The journal's entry and the metrics' count, together.
    private func commit(
        _ request: SKANRequest, _ outcome: SKANOutcome, status: Int, body: [UInt8], durationMicros: Int64,
        _ members: [JSONMember], fault: String?
    ) {
        journal.record(
            request: request, outcome: outcome, status: status, body: body, durationMicros: durationMicros,
            extra: members, tenant: tenant)
        metrics.record(
            endpoint: outcome.journalEndpoint, status: status, findings: outcome.findings,
            durationMicros: durationMicros, fault: fault)
    }
}
