import SKANDomain

/// The second stage of start-up: the parts that run before the server listens (the journal's
/// file, the upstream's client, the delayed answers' timer, the postback sender), each adopted by
/// the lifecycle the moment it exists, and the journal over the file. A later stage that fails
/// unwinds through the lifecycle (`unwinding`), stopping what was made in reverse, as a stop
/// would: the file flushed and closed, the upstream stopped.
struct RunningParts: Sendable {
    typealias StartupError = SKANMockServer.StartupError

    let journalFile: JournalFileSink?
    let upstream: Upstream?
    let delays: PendingDelays
    let postbackSends: PostbackSendQueue
    let journal: Journal
    private let lifecycle: ServerLifecycle

    init(
        _ options: CheckedOptions, clock: OffsetClock, edges: SKANMockServer.Edges, into lifecycle: ServerLifecycle
    ) throws(StartupError) {
        self.lifecycle = lifecycle
        let sink: JournalFileSink?
        do {
            sink = try options.logPath.map { path throws(JournalFileSink.OpenFailure) in try JournalFileSink(path: path)
            }
        } catch {
            throw StartupError(.journal, error.description)
        }
        journalFile = sink
        lifecycle.adopt([ServerPart("journal file", stop: { _ in sink?.close() })])
        let upstream = try Self.unwinding(lifecycle) { () throws(StartupError) in
            try options.upstream.map { upstreamOptions throws(StartupError) in
                try SKANMockServer.startUpstream(upstreamOptions, transport: edges.upstream)
            }
        }
        self.upstream = upstream
        lifecycle.adopt([ServerPart("upstream", stop: { _ in upstream?.stop() })])
        let (delays, postbackSends) = (PendingDelays(timer: edges.timer), PostbackSendQueue())
        (self.delays, self.postbackSends) = (delays, postbackSends)
        lifecycle.adopt([
            // Delayed answers that outlived the listeners' grace period reached no client: journaled so.
            ServerPart("delayed answers", stop: { _ in delays.stop() }),
            // Sends still waiting are journaled as not sent, before the journal's file is flushed.
            ServerPart("postback sender", stop: { grace in postbackSends.stop(gracePeriod: grace) })
        ])
        let share = Tenant.journalBounds(options.values)
        journal = Journal(
            capacity: options.journalSize, capacityBytes: options.journalBytes, tenantCapacity: share.capacity,
            tenantCapacityBytes: share.bytes, clock: clock, sink: sink)
    }

    /// Runs a later stage; if it fails, stops every part made so far before its error goes on.
    func unwinding<Value>(_ stage: () throws(StartupError) -> Value) throws(StartupError) -> Value {
        try Self.unwinding(lifecycle, stage)
    }

    private static func unwinding<Value>(
        _ lifecycle: ServerLifecycle, _ stage: () throws(StartupError) -> Value
    ) throws(StartupError) -> Value {
        do {
            return try stage()
        } catch {
            lifecycle.stop(gracePeriod: 0)
            throw error
        }
    }
}
