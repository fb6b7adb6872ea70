import SKANDomain

/// `--upstream-mode shadow`: the client gets the model's answer (faults included) as fast as
/// without an upstream; the same request goes to the upstream off the request's path, and the
/// entry, which holds both answers and the difference, is journaled once the upstream has
/// replied, in arrival order (`ShadowComparison`).
struct ShadowAnswerSource: AnswerSource {
    let model: ModelAnswerSource
    let upstream: Upstream

    func answer(
        _ exchange: SingularExchange, endpoint: SKANEndpoint, _ answered: @escaping @Sendable (SingularAnswer) -> Void
    ) {
        var answer = model.answer(exchange, endpoint: endpoint)
        let comparison = ShadowComparison(arrivals: upstream.arrivals)
        answer.comparison = comparison
        let outcome = answer.outcome
        let service = model.context.service
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
