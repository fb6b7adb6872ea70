import SKANDomain

/// `--upstream-mode shadow`: the client gets the model's answer (faults included) as fast as
/// without an upstream; the same request goes to the upstream off the request's path, and the
/// entry, which holds both answers and the difference, is journaled once the upstream has
/// replied, in its tenant's arrival order (`ShadowComparison`).
struct ShadowAnswerSource: AnswerSource {
    let model: ModelAnswerSource
    let upstream: Upstream

    func answer(
        _ exchange: SingularExchange, endpoint: SKANEndpoint, _ answered: @escaping @Sendable (SingularAnswer) -> Void
    ) {
        var answer = model.answer(exchange, endpoint: endpoint)
        // What the entry holds until it is journaled: the request as received, both answers and
        // the rest of the entry (about 1 KiB).
        let request = exchange.http
        let heldBytes = request.target.utf8.count + request.body.count + answer.body.count + 1024
        let comparison = ShadowComparison.arriving(in: model.tenant.arrivals, heldBytes: heldBytes)
        answer.comparison = comparison
        let outcome = answer.outcome
        let service = model.tenant.service
        // The client first: the upstream is off the request's path.
        answered(answer)
        upstream.forward(exchange.http, endpoint: endpoint, added: exchange.added) { reply in
            comparison.upstreamReplied(
                .init(
                    findings: reply.findings(comparedWith: outcome, service: service),
                    members: [reply.member]))
        }
    }
}
