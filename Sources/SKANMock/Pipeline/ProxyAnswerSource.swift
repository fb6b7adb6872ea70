import SKANDomain

/// `--upstream-mode proxy`: the upstream answers the client (status and body as received, or a
/// 502 in Singular's shape when it cannot); the model's answer is computed beside it, and the
/// device's state follows what the client got. Faults do not apply. Each answer is journaled
/// when the upstream's reply comes, just before the client gets it: that is when the device's
/// state changes, so ids follow the order of those changes (what `--resume` relies on).
struct ProxyAnswerSource: AnswerSource {
    let tenant: Tenant
    let upstream: Upstream

    func answer(
        _ exchange: SingularExchange, endpoint: SKANEndpoint, _ answered: @escaping @Sendable (SingularAnswer) -> Void
    ) {
        upstream.forward(exchange.http, endpoint: endpoint, added: exchange.added) { [tenant] reply in
            let status: Int
            let body: [UInt8]
            var outcome: SKANOutcome
            switch reply {
            case .answered(let upstreamStatus, let upstreamBody, _):
                status = upstreamStatus
                body = upstreamBody
                let adopted = AppliedAnswer.received(status: upstreamStatus, body: upstreamBody)
                outcome = tenant.service.handle(endpoint, exchange.request, commit: true, adopting: adopted)
            case .failed(_, let reason, _):
                status = 502
                body = SKANResponse.error("skan-mock could not get the upstream's answer: \(reason)")
                outcome = tenant.service.handle(endpoint, exchange.request, commit: false)
            }
            let model = SingularAnswer.modelMember(outcome)
            outcome.findings += reply.findings(comparedWith: outcome, service: tenant.service)
            answered(
                SingularAnswer(
                    outcome: outcome, status: status, body: body, members: [reply.member, model],
                    durationMicros: exchange.elapsedMicros))
        }
    }
}
