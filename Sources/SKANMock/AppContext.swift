import SKANDomain

/// What a route works on: the server-wide components and one tenant's state. A struct of
/// references, so handing it to a route copies nothing; each tenant's routes get its own.
struct AppContext: Sendable {
    let server: ServerComponents
    let tenant: Tenant

    var service: ConversionService { tenant.service }
    var faults: FaultInjector { tenant.faults }
    var clock: OffsetClock { tenant.clock }
    var receivedPostbacks: ReceivedPostbackStore { tenant.receivedPostbacks }

    var journal: Journal { server.journal }
    /// The tenant's own counters; the server's are `server.metrics`.
    var metrics: TenantMetrics { tenant.metrics }
    var modelStatus: ModelStatus { server.modelStatus }
    var startedAt: Int64 { server.startedAt }
    var bootId: String { server.bootId }
    var ports: ListeningPorts { server.ports }
    var startup: StartupState { server.startup }
    var upstream: Upstream? { server.upstream }
    var replay: Replay? { server.replay }
    var journalFile: JournalFileSink? { server.journalFile }
    var delays: PendingDelays { server.delays }
    var postbackSigning: PostbackSigning { server.postbackSigning }
    var postbackVerifier: PostbackVerifier { server.postbackVerifier }

    /// `filter` narrowed to this tenant's entries: every journal view of an admin route.
    func scoped(_ filter: JournalFilter) -> JournalFilter { tenant.scoped(filter) }
}
