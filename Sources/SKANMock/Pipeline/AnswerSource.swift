import SKANDomain

/// Stage 2: who answers a request that reached an endpoint. A tenant has one, made from the
/// server's `AnswerMode` (decided once from its options): the model, a replay file before the
/// model, the upstream (proxy), or the model compared with the upstream (shadow).
protocol AnswerSource: Sendable {
    /// Decides the answer to `exchange` and hands it to `answered`, once: at once on the
    /// caller's thread, or later from another (a proxy waits for the upstream).
    func answer(
        _ exchange: SingularExchange, endpoint: SKANEndpoint, _ answered: @escaping @Sendable (SingularAnswer) -> Void)
}
