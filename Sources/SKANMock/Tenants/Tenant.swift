import SKANDomain
import SystemPOSIX

/// One tenant: the whole server as seen under `/t/NAME` (or the default tenant, at the root). It
/// holds what a test changes or asserts on, so that tests sharing a server never see each other's:
/// the model and devices (the conversion service, with its coverage), the faults, the clock's
/// offset and the received postbacks. Its journal view is its own part of the server's one
/// journal (`scoped`), bounded by its own share. Listeners, the journal and its file, the upstream, a replay file and
/// the limits stay server-wide (`ServerComponents`).
final class Tenant: Sendable {
    /// nil for the default tenant.
    let name: String?
    let service: ConversionService
    let faults: FaultInjector
    /// The server's clock moved by this tenant's time-travel offset.
    let clock: OffsetClock
    /// The postbacks received at this tenant's `/.well-known/.../report-attribution/`.
    let receivedPostbacks: ReceivedPostbackStore
    /// The model it was born with, which `reset?scope=all` brings back: the start-up model for the
    /// default tenant, the default tenant's model of the moment for a named one (issue 46.5: a
    /// tenant born after a `PUT /__admin/model` got the start-up model back).
    let birthModel: ConversionModel
    /// Shadow mode's entries waiting for the upstream, journaled in this tenant's arrival order:
    /// another tenant's slow reply never holds this one's entries back (issue 46.5).
    let arrivals: ArrivalOrder
    /// Its requests, findings, faults and latencies: its own, so that its metrics and the root's
    /// label for it never mix another tenant's traffic in (issue 46.4).
    let metrics = TenantMetrics()
    /// Pending waits and open event streams: while any is held, the tenant is in use and the
    /// registry never drops it (issue 46.3: a test waiting for its app's second request lost its
    /// first when ten other tenants came).
    private let holds = Atomic<Int>(0)

    /// A wait or an event stream begins; `release` when it ends.
    func hold() { _ = holds.add(1, ordering: .relaxed) }
    func release() { _ = holds.subtract(1, ordering: .relaxed) }
    var isHeld: Bool { holds.load(ordering: .relaxed) > 0 }

    init(
        name: String?, service: ConversionService, faults: FaultInjector, clock: OffsetClock,
        birthModel: ConversionModel, arrivals: ArrivalOrder = ArrivalOrder(),
        receivedPostbacks: ReceivedPostbackStore = ReceivedPostbackStore()
    ) {
        self.name = name
        self.birthModel = birthModel
        self.arrivals = arrivals
        self.service = service
        self.faults = faults
        self.clock = clock
        self.receivedPostbacks = receivedPostbacks
    }

    /// A named tenant as a fresh one starts: `model` and its faults, the start-up clock offset, no
    /// device, its share of the server's device bounds (`deviceBounds`).
    static func fresh(
        named name: String, model: ConversionModel, baseClock: any SKANClock, options: ServerOptions
    ) -> Tenant {
        let clock = OffsetClock(base: baseClock, offsetSeconds: options.clockOffsetSeconds)
        let bounds = deviceBounds(options)
        let postbackBounds = receivedPostbackBounds(options)
        return Tenant(
            name: name,
            service: ConversionService(
                model: model, clock: clock, deviceCapacity: bounds.capacity, deviceBytes: bounds.bytes,
                strict: options.strict),
            faults: FaultInjector(rules: model.faults), clock: clock, birthModel: model,
            arrivals: ArrivalOrder(limits: arrivalBounds(options)),
            receivedPostbacks: ReceivedPostbackStore(
                capacity: postbackBounds.capacity, capacityBytes: postbackBounds.bytes))
    }

    /// A named tenant's equal share of a server-wide bound among `--max-tenants`, never below
    /// `atLeast`: every per-tenant bound below is one, so that the named tenants together hold about
    /// what the default tenant may.
    static func share(_ whole: Int, _ options: ServerOptions, atLeast floor: Int) -> Int {
        max(floor, whole / max(1, options.maxTenants))
    }

    /// A named tenant's part of the journal: an equal share of `--journal-size` and
    /// `--journal-bytes` among `--max-tenants`, never below 100 entries and 256 KiB, so that a
    /// test's entries are its own and no other tenant's traffic drops them (issue 46.1).
    static func journalBounds(_ options: ServerOptions) -> (capacity: Int, bytes: Int) {
        (share(options.journalSize, options, atLeast: 100), share(options.journalBytes, options, atLeast: 256 << 10))
    }

    /// A named tenant's bound on shadow mode's waiting entries: an equal share of the upstream's
    /// (8,192 entries and 64 MiB) among `--max-tenants`, never below 64 entries and 1 MiB, so that
    /// the named tenants' waiting entries together hold about what the default tenant's may.
    static func arrivalBounds(_ options: ServerOptions) -> ArrivalOrder.Limits {
        let whole = options.upstream?.shadowHeld ?? .standard
        return ArrivalOrder.Limits(
            entries: share(whole.entries, options, atLeast: 64), bytes: share(whole.bytes, options, atLeast: 1 << 20))
    }

    /// A named tenant's bound on received postbacks: an equal share of the default tenant's
    /// (1,000 and 4 MiB of bodies) among `--max-tenants`, as its devices have, so that postbacks
    /// posted to every tenant hold no more than twice the default's in all. Never below 16
    /// postbacks and 64 KiB (Apple's postbacks are 1 to 2 KiB).
    static func receivedPostbackBounds(_ options: ServerOptions) -> (capacity: Int, bytes: Int) {
        let whole = ReceivedPostbackStore()
        return (share(whole.capacity, options, atLeast: 16), share(whole.capacityBytes, options, atLeast: 64 << 10))
    }

    /// A named tenant's device bounds: an equal share of `--device-capacity` and the device bytes
    /// among `--max-tenants`, so all named tenants together hold no more device state than the
    /// default tenant may (a test's tenant needs a few devices; 64 tenants of the defaults get
    /// 1,562 devices and 4 MiB each). Never below one device and 64 KiB.
    static func deviceBounds(_ options: ServerOptions) -> (capacity: Int, bytes: Int) {
        (share(options.deviceCapacity, options, atLeast: 1), share(options.deviceBytes, options, atLeast: 64 << 10))
    }

    /// Its series in the metrics: its counters, its part of the journal and its devices.
    func metricsScope(_ journal: Journal) -> MetricsExposition.Scope {
        let usage = journal.usage(tenant: name)
        return MetricsExposition.Scope(
            tenant: name, counters: metrics.snapshot, journalEntries: usage.size, journalDropped: usage.dropped,
            devices: service.deviceCount)
    }

    /// `filter` narrowed to this tenant's entries.
    func scoped(_ filter: JournalFilter) -> JournalFilter {
        var scoped = filter
        scoped.tenant = .only(name)
        return scoped
    }
}
