/// One tenant's part of the journal: its entries in id order, bounded by its own count and bytes,
/// with its own drops and clears. Another tenant's traffic never pushes them out (issue 46.1: one
/// ring for every tenant let a chatty job drop another job's entries before its assertions read
/// them). Ids are the journal's, so they increase but are not consecutive here: other tenants'
/// fall between them, and an entry is found by binary search, not by position.
struct JournalPartition: Sendable {
    let capacity: Int
    let capacityBytes: Int
    /// A circular buffer, allocated at the first entry (a tenant that never records costs nothing).
    private var ring: [JournalEntry?] = []
    private var start = 0
    private(set) var count = 0
    private(set) var bytes = 0
    /// Entries dropped for room since the last clear.
    private(set) var dropped: Int64 = 0
    /// Ids at or below this are gone from this part (dropped or cleared).
    private(set) var lowWatermark: Int64 = 0
    /// Ids at or below this were removed by a clear: a reader that showed them starts again.
    private(set) var clearedThrough: Int64 = 0
    /// The journal's generation at this part's last clear (0: never cleared).
    private(set) var clearedGeneration = 0

    init(capacity: Int, capacityBytes: Int) {
        self.capacity = max(1, capacity)
        self.capacityBytes = max(1, capacityBytes)
    }

    /// The `k`th entry kept, oldest first.
    func entry(_ k: Int) -> JournalEntry {
        // Every slot among `count` holds an entry.
        ring[(start + k) % capacity]!
    }

    var newestId: Int64? { count == 0 ? nil : entry(count - 1).id }

    /// The position of the first entry whose id is above `id` (`count` when none is).
    func position(after id: Int64) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if entry(middle).id <= id { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Entries pushed out, held until the journal's lock is released: the first without an array
    /// (a full journal displaces one entry per request), any more in one.
    struct Displaced: Sendable {
        var first: JournalEntry?
        var more: [JournalEntry] = []

        mutating func add(_ entry: JournalEntry) {
            if first == nil { first = entry } else { more.append(entry) }
        }
    }

    /// Keeps `entry` (its id above every kept one), dropping the oldest while the count or the
    /// bytes would pass the bound (the newest is always kept); what it dropped goes to `displaced`,
    /// to be released after the journal's lock.
    mutating func append(_ entry: JournalEntry, displacing displaced: inout Displaced) {
        if ring.isEmpty { ring = Array(repeating: nil, count: capacity) }
        while count > 0 && (count == capacity || bytes + entry.line.count > capacityBytes) {
            let gone = removeOldest()
            lowWatermark = gone.id
            dropped += 1
            displaced.add(gone)
        }
        ring[(start + count) % capacity] = entry
        count += 1
        bytes += entry.line.count
    }

    private mutating func removeOldest() -> JournalEntry {
        var gone: JournalEntry?
        swap(&gone, &ring[start])
        start = (start + 1) % capacity
        count -= 1
        bytes -= gone!.line.count
        return gone!
    }

    /// After `--resume` put entries back: what did not fit was never dropped by this server.
    mutating func restored() { dropped = 0 }

    /// Empties this part: ids through `through` are gone, and its readers start again.
    mutating func clear(through: Int64, generation: Int) -> [JournalEntry?] {
        let gone = ring
        ring = []
        start = 0
        count = 0
        bytes = 0
        dropped = 0
        lowWatermark = through
        clearedThrough = through
        clearedGeneration = generation
        return gone
    }
}

/// The default tenant's part and the named tenants' parts: the default tenant's is a field of its
/// own, so its requests (the usual case) reach it without hashing a key.
struct JournalPartitions: Sendable {
    var root: JournalPartition
    var named: [String: JournalPartition] = [:]

    init(root: JournalPartition) {
        self.root = root
    }

    /// `tenant`'s part (nil: the default tenant's, always there).
    subscript(tenant: String?) -> JournalPartition? {
        get {
            guard let tenant else { return root }
            return named[tenant]
        }
        set {
            if let tenant {
                named[tenant] = newValue
            } else if let newValue {
                root = newValue
            }
        }
    }

    /// Keeps `entry` in its tenant's part, made with `bound` when it is new.
    mutating func append(
        _ entry: JournalEntry, bound: @autoclosure () -> (capacity: Int, bytes: Int),
        displacing displaced: inout JournalPartition.Displaced
    ) {
        guard let tenant = entry.tenant else { return root.append(entry, displacing: &displaced) }
        named[tenant, default: JournalPartition(capacity: bound().capacity, capacityBytes: bound().bytes)]
            .append(entry, displacing: &displaced)
    }

    var all: [JournalPartition] { [root] + Array(named.values) }

    var tenants: [String?] { [nil] + named.keys.map { $0 } }

    /// After `--resume`: no part counts as dropped what did not fit.
    mutating func restored() {
        root.restored()
        for key in named.keys { named[key]?.restored() }
    }
}
