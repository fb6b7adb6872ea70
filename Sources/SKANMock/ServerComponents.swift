import SKANDomain

/// What every tenant shares, each piece with its own owner and lock: the journal and its file,
/// the server's own metrics (each tenant counts its requests itself), the upstream and a replay file, the postbacks' keys, the listening ports, and
/// what the server started with. Set once, before the server listens.
struct ServerComponents: Sendable {
    let journal: Journal
    /// Connections closed unserved: the server's, not a tenant's.
    let metrics: ServerMetrics
    let modelStatus: ModelStatus
    let startedAt: Int64
    /// Random per process: the first half of the event stream's ids, so a client reconnecting to
    /// a restarted server is told to start again.
    let bootId: String
    /// Known once the server listens.
    let ports: ListeningPorts
    /// `--host`: what the postback sender must not reach, with `ports`.
    let listenHost: String
    let startup: StartupState
    /// Who answers Singular's requests (the model, `--replay`'s recording, or `--upstream` as a
    /// proxy or a shadow), decided once; the one place the upstream and the recording are kept.
    let answerMode: AnswerMode
    /// `--log`: the journal's file, whose state health and metrics report.
    let journalFile: JournalFileSink?
    /// Answers held back by `delay` faults.
    let delays: PendingDelays
    /// The server's own time: journal waits' timeouts and the event stream's heartbeat.
    let timer: ServerTimer
    /// Signs AdAttributionKit postbacks' JWS with the local CA's key when HTTPS is on; else why not.
    let postbackSigning: PostbackSigning
    /// Checks received postbacks' signatures: Apple's keys, and the local CA's when HTTPS is on.
    let postbackVerifier: PostbackVerifier
    /// The postback sender's threads and its bounded queue of sends.
    let postbackSends: PostbackSendQueue
    /// What carries the sender's posts.
    let postbackTransport: any PostbackTransport
}
