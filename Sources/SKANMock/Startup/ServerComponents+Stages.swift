import SKANDomain

extension ServerComponents {
    /// What every tenant shares, from what the first two stages made: the answer mode decided
    /// from the upstream and the replay file, the postbacks' keys from HTTPS's CA.
    init(
        _ options: CheckedOptions, files: StartupFiles, running: RunningParts, ports: ListeningPorts,
        modelStatus: ModelStatus, edges: SKANMockServer.Edges
    ) {
        self.init(
            journal: running.journal, metrics: ServerMetrics(), modelStatus: modelStatus,
            startedAt: MonotonicClock.microseconds(), bootId: String(UInt64.random(in: 1...UInt64.max), radix: 36),
            ports: ports, listenHost: options.host,
            startup: StartupState(clockOffsetSeconds: options.clockOffsetSeconds),
            answerMode: AnswerMode(upstream: running.upstream, replay: files.replay),
            journalFile: running.journalFile, delays: running.delays, timer: edges.timer,
            postbackSigning: files.https?.postbackSigning ?? PostbackSigning(unsigned: PostbackSigning.unavailableHere),
            postbackVerifier: PostbackVerifier.server(local: files.https?.postbackKey),
            postbackSends: running.postbackSends, postbackTransport: edges.postbackTransport)
    }
}
