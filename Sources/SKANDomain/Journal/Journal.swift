import SystemPOSIX

/// The request journal (SPEC 2): every request as one JSON object, kept in memory up to `capacity`
/// (oldest dropped first and counted) and handed to a sink as JSON Lines.
///
/// Recording takes the lock twice, briefly: once to take an id, once to store the entry; the JSON
/// is built in between, outside the lock. Entries are stored and handed to the sink strictly in id
/// order: one that finishes early waits in `pending` until those before it have arrived.
public final class Journal: Sendable {
    private struct State: Sendable {
        var ring: [JournalEntry?]
        var start = 0
        var count = 0
        /// Empty slots among `count` (ids a resumed file could not give back).
        var holes = 0
        var nextId: Int64 = 1
        var nextToCommit: Int64 = 1
        var pending: [Int64: JournalEntry] = [:]
        var dropped: Int64 = 0
        /// The kept entries' lines, in bytes.
        var bytes = 0
        /// Ids at or below this are gone (dropped or cleared).
        var lowWatermark: Int64 = 0
        /// Ids at or below this were removed by a clear (not dropped for room): a reader that
        /// showed them must be told to start again.
        var clearedThrough: Int64 = 0
        /// Live readers; each commit wakes the armed ones.
        var readers: [JournalSubscription] = []
        /// Bumped by each clear, so a reader learns that what it showed is gone.
        var generation = 0
    }

    public let capacity: Int
    /// The most bytes of lines kept: a few huge requests must not hold gigabytes (oldest dropped first).
    public let capacityBytes: Int
    private let clock: any SKANClock
    private let sink: (any JournalSink)?
    private let state: Mutex<State>
    /// Who waits for entries to arrive (`wait(for:count:answer:)`); checked after each commit.
    public let waiters = JournalWaiters()

    public init(
        capacity: Int = 10_000, capacityBytes: Int = 64 << 20, clock: any SKANClock, sink: (any JournalSink)? = nil
    ) {
        self.capacity = max(1, capacity)
        self.capacityBytes = max(1, capacityBytes)
        self.clock = clock
        self.sink = sink
        state = Mutex(State(ring: Array(repeating: nil, count: max(1, capacity))))
    }

    /// Records a request after its response was sent. `status` and `body` are what was actually sent
    /// (the outcome's, or what a fault replaced them with); `outcome` is nil for requests the service
    /// never saw (a 405, say). `extra` members are appended to the record (e.g. `"fault"`);
    /// `tenant` names a tenant's request (nil: the default tenant's). Returns the entry's id.
    @discardableResult
    public func record(
        request: SKANRequest, outcome: SKANOutcome?, endpoint: SKANEndpoint? = nil, status: Int,
        body: [UInt8], durationMicros: Int64, extra: [JSONMember] = [], tenant: String? = nil
    ) -> Int64 {
        let id = state.withLock { s in
            let id = s.nextId
            s.nextId += 1
            return id
        }
        let entry = JournalEntry.make(
            id: id, timeMilliseconds: outcome?.timeMilliseconds ?? clock.nowMilliseconds(), request: request,
            endpoint: outcome?.endpoint ?? endpoint, outcome: outcome, status: status, body: body,
            durationMicros: durationMicros, extra: extra, tenant: tenant)
        // Entries pushed out of a full ring are returned, to be released after the lock, not under it.
        _ = state.withLock { s -> (JournalEntry?, [JournalEntry?]) in
            if id == s.nextToCommit && s.pending.isEmpty {
                // The usual case: nothing recorded out of order is waiting; no dictionary needed.
                return (commit(entry, &s), [])
            }
            s.pending[id] = entry
            var displaced: [JournalEntry?] = []
            while let next = s.pending.removeValue(forKey: s.nextToCommit) {
                displaced.append(commit(next, &s))
            }
            return (nil, displaced)
        }
        waiters.check(matching: { self.count($0) })
        return id
    }

    /// Stores the next entry in id order and hands it to the sink; returns the entry it displaced.
    private func commit(_ entry: JournalEntry, _ s: inout State) -> JournalEntry? {
        let displaced = store(entry, &s)
        sink?.write(line: entry.line)
        for reader in s.readers { reader.commitHappened() }
        return displaced
    }

    /// Keeps `entry` in the ring, making room by count and bytes; returns the entry it displaced.
    private func store(_ entry: JournalEntry, _ s: inout State) -> JournalEntry? {
        s.nextToCommit += 1
        var displaced: JournalEntry?
        // Room by count, then by bytes (the newest entry is always kept, however large).
        while s.count > 0 && (s.count == capacity || s.bytes + entry.line.count > capacityBytes) {
            displaced = nil
            swap(&displaced, &s.ring[s.start])
            // The slot's id (a restored journal may hold empty slots where lines were skipped).
            s.lowWatermark = s.nextToCommit - 1 - Int64(s.count)
            s.start = (s.start + 1) % capacity
            s.count -= 1
            if let displaced {
                s.dropped += 1
                s.bytes -= displaced.line.count
            } else {
                s.holes -= 1
            }
        }
        s.ring[(s.start + s.count) % capacity] = entry
        s.count += 1
        s.bytes += entry.line.count
        return displaced
    }

    /// Puts back entries read from the journal file at start (`--resume`), oldest first, as if they
    /// had just been recorded but without writing them to the sink again; ids go on after them.
    /// Ids must increase; a gap (a line the file could not give back) stays an empty slot, so the
    /// entries on both sides of it are kept. Only the newest that fit are kept. Only on an empty
    /// journal.
    public func restore(_ entries: [JournalEntry]) {
        state.withLock { s in
            guard s.count == 0, s.nextToCommit == 1, let newest = entries.last else { return }
            guard zip(entries, entries.dropFirst()).allSatisfy({ $0.id < $1.id }) else { return }
            var first = entries.endIndex - 1
            var bytes = newest.line.count
            while first > entries.startIndex && newest.id - entries[first - 1].id < Int64(capacity)
                && bytes + entries[first - 1].line.count <= capacityBytes
            {
                first -= 1
                bytes += entries[first].line.count
            }
            s.lowWatermark = entries[first].id - 1
            s.nextToCommit = entries[first].id
            for entry in entries[first...] {
                while s.nextToCommit < entry.id {
                    s.ring[(s.start + s.count) % capacity] = nil
                    s.count += 1
                    s.holes += 1
                    s.nextToCommit += 1
                }
                s.ring[(s.start + s.count) % capacity] = entry
                s.count += 1
                s.bytes += entry.line.count
                s.nextToCommit += 1
            }
            s.nextId = s.nextToCommit
        }
    }

    /// Registers a live reader, woken as `JournalSubscription` describes, and returns where it starts.
    public func addReader(wake: @escaping @Sendable () -> Void) -> (JournalSubscription, JournalPosition) {
        state.withLock { s in
            let reader = JournalSubscription(wake: wake)
            s.readers.append(reader)
            return (reader, JournalPosition(lastId: s.nextToCommit - 1, generation: s.generation))
        }
    }

    public func removeReader(_ reader: JournalSubscription) {
        state.withLock { s in s.readers.removeAll { $0 === reader } }
    }

    /// Live readers registered.
    public var readerCount: Int { state.withLock { $0.readers.count } }

    /// The kept entries after `cursor` that match `filter` (up to id `through`, when given), at
    /// most `limit` of them and, past the first, at most `maxBytes` of lines. Entries are found by
    /// position, not by scanning the ring: a reader that is up to date pays for the new entries only.
    public func read(
        after cursor: Int64, generation: Int, matching filter: JournalFilter, through: Int64? = nil,
        limit: Int, maxBytes: Int = .max
    ) -> JournalReading {
        state.withLock { s in
            var reading = JournalReading(cursor: cursor, generation: s.generation)
            reading.reset = generation != s.generation || cursor < s.lowWatermark
            let lastId = min(s.nextToCommit - 1, through ?? .max)
            // Kept ids are consecutive: the ring holds firstId ... nextToCommit - 1.
            let firstId = s.nextToCommit - Int64(s.count)
            var id = max(cursor, s.lowWatermark) + 1
            var bytes = 0
            while id <= lastId {
                if reading.entries.count == limit {
                    reading.more = true
                    break
                }
                if let e = s.ring[(s.start + Int(id - firstId)) % capacity], filter.matches(e) {
                    if !reading.entries.isEmpty && bytes + e.line.count > maxBytes {
                        reading.more = true
                        break
                    }
                    bytes += e.line.count
                    reading.entries.append(e)
                }
                reading.cursor = id
                id += 1
            }
            if !reading.more { reading.cursor = max(reading.cursor, lastId) }
            return reading
        }
    }

    /// Ids at or below this are no longer kept (dropped or cleared); 0 when nothing was lost.
    public var lowWatermark: Int64 { state.withLock { $0.lowWatermark } }

    /// The last id removed by a clear (0 before any): a stream resuming at or below it showed
    /// entries the journal no longer has.
    public var clearedThrough: Int64 { state.withLock { $0.clearedThrough } }

    /// Matching entries in ascending id order, limited as `JournalFilter.limit` describes.
    public func query(_ filter: JournalFilter = JournalFilter()) -> JournalPage {
        state.withLock { s in
            var matches: [JournalEntry] = []
            for k in 0..<s.count {
                if let e = s.ring[(s.start + k) % capacity], filter.matches(e) { matches.append(e) }
            }
            let total = matches.count
            if let limit = filter.limit, limit >= 0, limit < matches.count {
                matches = filter.sinceId != nil ? Array(matches.prefix(limit)) : Array(matches.suffix(limit))
            }
            return JournalPage(entries: matches, total: total, dropped: s.dropped)
        }
    }

    /// How many entries match (ignoring `limit`).
    public func count(_ filter: JournalFilter = JournalFilter()) -> Int {
        var f = filter
        f.limit = nil
        return state.withLock { s in
            var n = 0
            for k in 0..<s.count {
                if let e = s.ring[(s.start + k) % capacity], f.matches(e) { n += 1 }
            }
            return n
        }
    }

    /// Empties one tenant's part of the journal (nil: the default tenant's); ids keep increasing.
    /// The sink gets a reset marker naming the tenant, so that `--resume` does not bring back what
    /// was cleared; `devices` says the tenant's devices were reset too. When the journal holds
    /// nothing else, it is emptied whole, its dropped count too (as before tenants); otherwise the
    /// tenant's entries leave empty slots, and the others stay where they were.
    public func clear(devices: Bool = false, tenant: String? = nil) {
        state.withLock { s in
            sink?.write(line: JournalResetMarker(through: s.nextToCommit - 1, devices: devices, tenant: tenant).line)
            let capacity = self.capacity
            var others = false
            for k in 0..<s.count {
                if let e = s.ring[(s.start + k) % capacity], e.tenant != tenant {
                    others = true
                    break
                }
            }
            if others {
                for k in 0..<s.count {
                    let slot = (s.start + k) % capacity
                    if let e = s.ring[slot], e.tenant == tenant {
                        s.bytes -= e.line.count
                        s.holes += 1
                        s.ring[slot] = nil
                    }
                }
            } else {
                for k in 0..<s.ring.count { s.ring[k] = nil }
                s.start = 0
                s.count = 0
                s.holes = 0
                s.bytes = 0
                s.dropped = 0
                s.lowWatermark = s.nextToCommit - 1
            }
            s.clearedThrough = s.nextToCommit - 1
            s.generation += 1
            for reader in s.readers { reader.wake() }
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

    /// Entries held.
    public var size: Int { state.withLock { $0.count - $0.holes } }

    /// Bytes of the entries held.
    public var bytes: Int { state.withLock { $0.bytes } }

    /// Entries dropped because the journal was full, since the last clear.
    public var dropped: Int64 { state.withLock { $0.dropped } }

    /// The id of the latest entry stored, 0 when none yet.
    public var lastId: Int64 { state.withLock { $0.nextToCommit - 1 } }
}
