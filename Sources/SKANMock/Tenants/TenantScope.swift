import SKANDomain

/// What one request works on: its tenant's state and its view of the server's one journal. The
/// admin routes are registered once for the whole server and each request hands its handler the
/// scope `AppResponder` read from its path (`/t/NAME`, or none for the default tenant); a tenant's
/// Singular side and postback receiver keep theirs for its life. Two references: making one per
/// request costs two retains.
struct TenantScope: Sendable {
    let tenant: Tenant
    /// The server's journal; every read through this scope is narrowed to the tenant (`scoped`).
    let journal: Journal

    /// nil for the default tenant.
    var name: String? { tenant.name }
    var isDefault: Bool { tenant.name == nil }
    var service: ConversionService { tenant.service }
    var faults: FaultInjector { tenant.faults }
    var clock: OffsetClock { tenant.clock }
    var receivedPostbacks: ReceivedPostbackStore { tenant.receivedPostbacks }
    var metrics: TenantMetrics { tenant.metrics }

    /// `filter` narrowed to this tenant's entries: every journal view of an admin route.
    func scoped(_ filter: JournalFilter) -> JournalFilter { tenant.scoped(filter) }

    /// The tenant's entries matching `filter`.
    func entries(_ filter: JournalFilter) -> JournalPage { journal.query(scoped(filter)) }

    /// Empties the tenant's part of the journal and the model coverage counted with it; `devices`
    /// when a reset forgets the devices too (the journal file's marker says so, for `--resume`).
    func clearJournal(devices: Bool = false) {
        journal.clear(devices: devices, tenant: tenant.name)
        service.resetCoverage()
    }
}
