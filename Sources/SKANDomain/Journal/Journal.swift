import SystemPOSIX

/// The request journal (SPEC 2): every request as one JSON object, kept in memory in one
/// partition per tenant (`JournalPartition`), each up to its own bound (oldest dropped first and
/// counted), and handed to one sink as JSON Lines.
///
/// Recording takes the lock twice, briefly: once to take an id, once to store the entry; the JSON
/// is built in between, outside the lock. Entries are stored and handed to the sink strictly in id
/// order: one that finishes early waits in `pending` until those before it have arrived.
public final class Journal: Sendable {
    private struct State: Sendable {
        /// The default tenant's part (nil key) and each named tenant's.
        var partitions: JournalPartitions
        var nextId: Int64 = 1
        var nextToCommit: Int64 = 1
        var pending: [Int64: JournalEntry] = [:]
        /// Live readers; each commit wakes the armed ones of its tenant.
        var readers: [(subscription: JournalSubscription, tenant: JournalFilter.TenantScope)] = []
        /// Bumped by each clear, so a reader learns that what it showed is gone.
        var generation = 0
    }

    /// The default tenant's bound, in entries.
    public let capacity: Int
    /// The most bytes of lines the default tenant keeps: a few huge requests must not hold
    /// gigabytes (oldest dropped first).
    public let capacityBytes: Int
    /// Each named tenant's own bound: its share of the server's (`--journal-size`,
    /// `--journal-bytes` among `--max-tenants`).
    public let tenantCapacity: Int
    public let tenantCapacityBytes: Int
    private let clock: any SKANClock
    private let sink: (any JournalSink)?
    private let state: Mutex<State>
    /// Who waits for entries to arrive (`wait(for:count:answer:)`); checked after each commit.
    public let waiters = JournalWaiters()

    /// `tenantCapacity` and `tenantCapacityBytes` bound each named tenant's part (by default, as
    /// the default tenant's).
    public init(
        capacity: Int = 10_000, capacityBytes: Int = 64 << 20, tenantCapacity: Int? = nil,
        tenantCapacityBytes: Int? = nil, clock: any SKANClock, sink: (any JournalSink)? = nil
    ) {
        self.capacity = max(1, capacity)
        self.capacityBytes = max(1, capacityBytes)
        self.tenantCapacity = max(1, tenantCapacity ?? capacity)
        self.tenantCapacityBytes = max(1, tenantCapacityBytes ?? capacityBytes)
        self.clock = clock
        self.sink = sink
        state = Mutex(
            State(
                partitions: JournalPartitions(root: JournalPartition(capacity: capacity, capacityBytes: capacityBytes)))
        )
    }

    /// The bound of `tenant`'s part (nil: the default tenant's).
    public func bounds(tenant: String?) -> (capacity: Int, bytes: Int) {
        tenant == nil ? (capacity, capacityBytes) : (tenantCapacity, tenantCapacityBytes)
    }

    /// Records a request after its response was sent. `status` and `body` are what was actually sent
    /// (the outcome's, or what a fault replaced them with); `outcome` is nil for requests the service
    /// never saw (a 405, say). `extra` members are appended to the record (e.g. `"fault"`);
    /// `tenant` names a tenant's request (nil: the default tenant's). Returns the entry's id.
    @discardableResult
    public func record(
        request: SKANRequest, outcome: SKANOutcome?, endpoint: JournalEndpoint? = nil, status: Int,
        body: [UInt8], durationMicros: Int64, extra: [JSONMember] = [], tenant: String? = nil
    ) -> Int64 {
        record(
            request: request, outcome: outcome, endpoint: endpoint, status: status, body: body,
            durationMicros: durationMicros, extra: extra, tenant: tenant, postback: nil)
    }

    /// Either kind of exchange: a request with its outcome (or none), or a postback.
    private func record(
        request: SKANRequest, outcome: SKANOutcome?, endpoint: JournalEndpoint?, status: Int, body: [UInt8],
        durationMicros: Int64, extra: [JSONMember], tenant: String?, postback: PostbackExchange?
    ) -> Int64 {
        let id = takeId()
        let entry = JournalEntry.make(
            id: id,
            timeMilliseconds: outcome?.timeMilliseconds ?? postback?.timeMilliseconds ?? clock.nowMilliseconds(),
            request: request, endpoint: outcome?.journalEndpoint ?? endpoint, outcome: outcome, status: status,
            body: body, durationMicros: durationMicros, extra: extra, tenant: tenant, postback: postback)
        store(entry)
        return id
    }

    /// The next id, taken before the entry's JSON is built (outside the lock).
    func takeId() -> Int64 {
        state.withLock { s in
            let id = s.nextId
            s.nextId += 1
            return id
        }
    }

    /// Stores `entry` (its id taken with `takeId`), with the ones waiting for it, in id order.
    func store(_ entry: JournalEntry) {
        let id = entry.id
        // Entries pushed out of a full part are returned, to be released after the lock, not under
        // it; in the usual case one entry is committed and at most one displaced, with no array.
        let (single, more, _) = state.withLock { s -> (JournalEntry?, [JournalEntry], JournalPartition.Displaced) in
            var displaced = JournalPartition.Displaced()
            if id == s.nextToCommit && s.pending.isEmpty {
                // The usual case: nothing recorded out of order is waiting; no dictionary needed.
                commit(entry, &s, &displaced)
                return (entry, [], displaced)
            }
            s.pending[id] = entry
            var committed: [JournalEntry] = []
            while let next = s.pending.removeValue(forKey: s.nextToCommit) {
                commit(next, &s, &displaced)
                committed.append(next)
            }
            return (nil, committed, displaced)
        }
        if let single { waiters.check(single) }
        for entry in more { waiters.check(entry) }
    }

    /// Runs `body` under the lock once every entry whose id was taken before the call is stored,
    /// so a read or a clear sees every exchange recorded before it began, whoever else records.
    /// Entries are stored in id order, and an id is taken before the entry's JSON is built: one
    /// recorder descheduled between the two (a loaded machine) held back every tenant's entries
    /// after its own, and a test that counted its tenant's requests right after making them found
    /// none. The wait is for JSON being built (microseconds); past about a second, what is stored
    /// is read, so an admin request never hangs.
    private func settled<Value>(_ body: (inout State) -> Value) -> Value {
        var goal: Int64?
        var tries = 0
        while true {
            let result = state.withLock { s -> Value? in
                let through = goal ?? (s.nextId - 1)
                guard s.nextToCommit > through || tries >= Self.settleTries else {
                    goal = through
                    return nil
                }
                return body(&s)
            }
            if let result { return result }
            tries += 1
            if tries < 64 { System.yieldProcessor() } else { System.sleep(microseconds: 200) }
        }
    }

    /// About a second of waiting for stores under way: 64 yields, then 200 µs sleeps.
    private static let settleTries = 64 + 5_000

    /// Records a postback received or sent (`PostbackExchange`) as endpoint `postback`, with its
    /// `extra` members (the typed postback, what was sent). Returns the entry's id.
    @discardableResult
    public func record(postback: PostbackExchange, extra: [JSONMember], tenant: String? = nil) -> Int64 {
        record(
            request: postback.request, outcome: nil, endpoint: .postback, status: postback.status, body: postback.body,
            durationMicros: 0, extra: extra, tenant: tenant, postback: postback)
    }

    /// Stores the next entry in id order in its tenant's part and hands it to the sink.
    private func commit(_ entry: JournalEntry, _ s: inout State, _ displaced: inout JournalPartition.Displaced) {
        s.nextToCommit += 1
        let tenant = entry.tenant
        s.partitions.append(entry, bound: bounds(tenant: tenant), displacing: &displaced)
        sink?.write(line: entry.line)
        for reader in s.readers where reader.tenant.includes(tenant) { reader.subscription.commitHappened() }
    }

    /// Puts back entries read from the journal file at start (`--resume`), oldest first, as if they
    /// had just been recorded but without writing them to the sink again; ids go on after them.
    /// Ids must increase. Each tenant's part keeps the newest that fit its bound. Only on an empty
    /// journal.
    public func restore(_ entries: [JournalEntry]) {
        _ = state.withLock { s -> JournalPartition.Displaced in
            var displaced = JournalPartition.Displaced()
            guard s.partitions.root.count == 0, s.partitions.named.isEmpty, s.nextToCommit == 1,
                let newest = entries.last
            else { return displaced }
            guard zip(entries, entries.dropFirst()).allSatisfy({ $0.id < $1.id }) else { return displaced }
            for entry in entries {
                let bound = bounds(tenant: entry.tenant)
                s.partitions.append(entry, bound: bound, displacing: &displaced)
            }
            // What did not fit is gone, as if dropped, but not counted as dropped.
            s.partitions.restored()
            s.nextToCommit = newest.id + 1
            s.nextId = s.nextToCommit
            return displaced
        }
    }

    /// Registers a live reader of `tenant`'s entries, woken as `JournalSubscription` describes
    /// by a commit or a clear of those entries only, and returns where it starts.
    public func addReader(tenant: JournalFilter.TenantScope = .all, wake: @escaping @Sendable () -> Void) -> (
        JournalSubscription, JournalPosition
    ) {
        state.withLock { s in
            let reader = JournalSubscription(wake: wake)
            s.readers.append((reader, tenant))
            return (reader, JournalPosition(lastId: s.nextToCommit - 1, generation: s.generation))
        }
    }

    public func removeReader(_ reader: JournalSubscription) {
        state.withLock { s in s.readers.removeAll { $0.subscription === reader } }
    }

    /// Live readers registered.
    public var readerCount: Int { state.withLock { $0.readers.count } }

    /// The parts `scope` reads.
    private func partitions(_ scope: JournalFilter.TenantScope, _ s: State) -> [JournalPartition] {
        switch scope {
        case .only(let name): s.partitions[name].map { [$0] } ?? []
        case .all: s.partitions.all
        }
    }

    /// The kept entries after `cursor` that match `filter` (up to id `through`, when given), at
    /// most `limit` of them and, past the first, at most `maxBytes` of lines. Within a tenant's
    /// part an entry is found by binary search, not by scanning: a reader that is up to date pays
    /// for the new entries only.
    public func read(
        after cursor: Int64, generation: Int, matching filter: JournalFilter, through: Int64? = nil,
        limit: Int, maxBytes: Int = .max
    ) -> JournalReading {
        state.withLock { s in
            var reading = JournalReading(cursor: cursor, generation: s.generation)
            let parts = partitions(filter.tenant, s)
            reading.reset = parts.contains { $0.clearedGeneration > generation || cursor < $0.lowWatermark }
            let lastId = min(s.nextToCommit - 1, through ?? .max)
            var candidates: [JournalEntry] = []
            for part in parts {
                var k = part.position(after: cursor)
                while k < part.count, case let e = part.entry(k), e.id <= lastId {
                    if filter.matches(e) { candidates.append(e) }
                    // One part is read in id order: past `limit` matches nothing later is needed.
                    if parts.count == 1 && candidates.count > limit { break }
                    k += 1
                }
            }
            if parts.count > 1 { candidates.sort { $0.id < $1.id } }
            var bytes = 0
            for e in candidates {
                if reading.entries.count == limit || (!reading.entries.isEmpty && bytes + e.line.count > maxBytes) {
                    reading.more = true
                    break
                }
                bytes += e.line.count
                reading.entries.append(e)
                reading.cursor = e.id
            }
            if !reading.more { reading.cursor = max(reading.cursor, lastId) }
            return reading
        }
    }

    /// Ids at or below this are no longer kept in `tenant`'s part (dropped or cleared); 0 when
    /// nothing was lost.
    public func lowWatermark(tenant: String? = nil) -> Int64 {
        state.withLock { $0.partitions[tenant]?.lowWatermark ?? 0 }
    }

    /// The last id removed by a clear of `scope`'s entries (0 before any): a stream resuming at or
    /// below it showed entries the journal no longer has.
    public func clearedThrough(_ scope: JournalFilter.TenantScope = .all) -> Int64 {
        state.withLock { s in partitions(scope, s).map(\.clearedThrough).max() ?? 0 }
    }

    /// Matching entries in ascending id order, limited as `JournalFilter.limit` describes; `dropped`
    /// counts the drops of the parts read.
    public func query(_ filter: JournalFilter = JournalFilter()) -> JournalPage {
        settled { s in
            let parts = partitions(filter.tenant, s)
            var matches: [JournalEntry] = []
            for part in parts {
                let first = filter.sinceId.map { part.position(after: $0) } ?? 0
                for k in first..<part.count where filter.matches(part.entry(k)) { matches.append(part.entry(k)) }
            }
            if parts.count > 1 { matches.sort { $0.id < $1.id } }
            let total = matches.count
            if let limit = filter.limit, limit >= 0, limit < matches.count {
                matches = filter.sinceId != nil ? Array(matches.prefix(limit)) : Array(matches.suffix(limit))
            }
            return JournalPage(entries: matches, total: total, dropped: parts.reduce(0) { $0 + $1.dropped })
        }
    }

    /// How many entries match (ignoring `limit`).
    public func count(_ filter: JournalFilter = JournalFilter()) -> Int {
        settled { s in count(filter, s) }
    }

    /// Files a waiter with what already matches, under the lock (`JournalWaiters.add`); true when
    /// that is enough already.
    func register(_ waiter: JournalWaiters.Waiter) -> (id: Int, satisfied: Bool) {
        state.withLock { s in
            let matched = count(waiter.filter, s)
            let id = waiters.add(waiter, matched: matched, through: s.nextToCommit - 1)
            return (id, matched >= waiter.count)
        }
    }

    private func count(_ filter: JournalFilter, _ s: State) -> Int {
        var n = 0
        for part in partitions(filter.tenant, s) {
            let first = filter.sinceId.map { part.position(after: $0) } ?? 0
            for k in first..<part.count where filter.matches(part.entry(k)) { n += 1 }
        }
        return n
    }

    /// Empties one tenant's part of the journal (nil: the default tenant's); ids keep increasing.
    /// The sink gets a reset marker naming the tenant, so that `--resume` does not bring back what
    /// was cleared; `devices` says the tenant's devices were reset too. Only that tenant's readers
    /// are told to start again, and its waiters count from nothing. `forget` also gives back the
    /// part itself (a tenant dropped from the registry).
    public func clear(devices: Bool = false, tenant: String? = nil, forget: Bool = false) {
        // What the part held is returned, to be released after the lock, not under it.
        _ = settled { s -> [JournalEntry?] in
            let through = s.nextToCommit - 1
            sink?.write(line: JournalResetMarker(through: through, devices: devices, tenant: tenant).line)
            s.generation += 1
            let bound = bounds(tenant: tenant)
            var part = s.partitions[tenant] ?? JournalPartition(capacity: bound.capacity, capacityBytes: bound.bytes)
            let gone = part.clear(through: through, generation: s.generation)
            if forget && tenant != nil { s.partitions[tenant] = nil } else { s.partitions[tenant] = part }
            for reader in s.readers where reader.tenant.includes(tenant) { reader.subscription.wake() }
            // Under the lock, so that no commit falls between the recount and the clear.
            waiters.recount(tenant: tenant, through: through) { count($0, s) }
            return gone
        }
    }

    /// Blocks until the sink has written every entry recorded so far.
    public func flushSink() { sink?.flush() }

    /// Runs `then` once the sink has written every line so far (at once without a sink); never
    /// blocks the caller.
    public func flushSink(then: @escaping @Sendable () -> Void) {
        guard let sink else { return then() }
        sink.flush(then: then)
    }

    /// Entries held, every tenant's.
    public var size: Int { state.withLock { $0.partitions.all.reduce(0) { $0 + $1.count } } }

    /// Bytes of the entries held, every tenant's.
    public var bytes: Int { state.withLock { $0.partitions.all.reduce(0) { $0 + $1.bytes } } }

    /// Entries dropped because a part was full, since each part's last clear, every tenant's.
    public var dropped: Int64 { state.withLock { $0.partitions.all.reduce(0) { $0 + $1.dropped } } }

    /// One tenant's part: its entries held, their bytes and its drops (nil: the default tenant's).
    public func usage(tenant: String?) -> (size: Int, bytes: Int, dropped: Int64) {
        state.withLock { s in
            let part = s.partitions[tenant]
            return (part?.count ?? 0, part?.bytes ?? 0, part?.dropped ?? 0)
        }
    }

    /// The tenants whose parts exist (nil: the default tenant).
    public var tenants: [String?] { state.withLock { $0.partitions.tenants } }

    /// The id of the latest entry stored, 0 when none yet.
    public var lastId: Int64 { state.withLock { $0.nextToCommit - 1 } }
}

extension JournalFilter.TenantScope {
    /// Whether an entry of `tenant` is in this scope.
    func includes(_ tenant: String?) -> Bool {
        switch self {
        case .all: true
        case .only(let name): name == tenant
        }
    }
}
