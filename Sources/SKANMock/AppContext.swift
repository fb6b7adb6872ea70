import SKANDomain

/// The application's shared state, each piece with its own owner and lock: what the endpoint and
/// admin routes work on. A struct of references, so handing it to a route copies nothing.
struct AppContext: Sendable {
    let service: ConversionService
    let journal: Journal
    let faults: FaultInjector
    let clock: OffsetClock
    let metrics: ServerMetrics
    let modelStatus: ModelStatus
    let startedAt: Int64
    /// Random per process: the first half of the event stream's ids, so a client reconnecting to
    /// a restarted server is told to start again.
    let bootId: String
    /// Known once the server listens.
    let ports: ListeningPorts
    let startup: StartupState
    /// `--upstream`: the real service the model is compared with (shadow) or that answers (proxy).
    var upstream: Upstream? = nil
    /// `--replay`: recorded answers served before the model's.
    var replay: Replay? = nil
    /// `--log`: the journal's file, whose state health and metrics report.
    var journalFile: JournalFileSink? = nil
    /// Answers held back by `delay` faults.
    var delays = PendingDelays()
    /// Signs AdAttributionKit postbacks' JWS with the local CA's key when HTTPS is on; else why not.
    var postbackSigning = PostbackSigning(unsigned: PostbackSigning.unavailableHere)
    /// Checks received postbacks' signatures: Apple's keys, and the local CA's when HTTPS is on.
    var postbackVerifier = PostbackVerifier.server(local: nil)
    /// The postbacks received at `/.well-known/.../report-attribution/`.
    var receivedPostbacks = ReceivedPostbackStore()
}
