import SKANDomain

/// `--replay`: a recorded answer for this device and state is production's, served as recorded;
/// the model's is journaled beside it, and the device's state follows the recorded one (as in
/// proxy mode). Faults do not replace a recorded answer. A request the recording does not hold
/// gets the model's answer, with a `not_recorded` finding that says why.
struct ReplayAnswerSource: AnswerSource {
    let replay: Replay
    let model: ModelAnswerSource

    private var tenant: Tenant { model.tenant }

    func answer(
        _ exchange: SingularExchange, endpoint: SKANEndpoint, _ answered: @escaping @Sendable (SingularAnswer) -> Void
    ) {
        // Read once: the recording is looked up by it, and the model answers it.
        let parsed = ParsedSKANRequest(endpoint, exchange.request, nowMilliseconds: tenant.clock.nowMilliseconds())
        let device = parsed.device
        let key = ReplayKey(parsed)
        guard let recorded = replay.take(device: device, key: key, tenant: tenant.name) else {
            let notRecorded = replay.notRecorded(device: device, key: key)
            answered(
                model.answer(
                    exchange, endpoint: endpoint, parsed: parsed, findings: [notRecorded],
                    members: [JournalRecord.replayedMember(false)]))
            return
        }
        let adopted = AppliedAnswer.received(status: recorded.status, body: recorded.body)
        let outcome = tenant.service.answer(parsed, commit: true, adopting: adopted)
        var members = [JournalRecord.replayedMember(true), SingularAnswer.modelMember(outcome)]
        if let id = recorded.journalId { members.append(JournalRecord.recordedIdMember(id)) }
        answered(
            SingularAnswer(
                outcome: outcome, status: recorded.status, body: recorded.body, members: members,
                durationMicros: exchange.elapsedMicros))
    }
}
