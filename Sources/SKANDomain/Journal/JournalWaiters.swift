import SystemPOSIX

/// Callers waiting for the journal to hold enough matching entries (`/__admin/requests/wait`), so a
/// test can wait for a request without sleeping and without holding a thread.
///
/// Each waiter counts what matched when it came (once, under the journal's lock) and then only the
/// entries committed after that, one at a time: a commit checks the waiters of its own tenant
/// against the new entry alone. Rescanning the journal for every waiter on every commit made 16
/// parallel tests' waits cost the server 0.003 of its speed (issue 46.2). An entry dropped for
/// room after it arrived still counts: it arrived.
///
/// Each waiter is answered exactly once: whoever removes it from the table (a commit that satisfied
/// it, or its timeout) answers it; everyone else finds it gone. Answers run outside every lock, so
/// a waiter's callback may query the journal.
public final class JournalWaiters: Sendable {
    /// One registered waiter: what it waits for and how to answer it.
    struct Waiter: Sendable {
        let filter: JournalFilter
        let count: Int
        /// Called once, with `true` when the wait ran out before `count` entries matched.
        let answer: @Sendable (_ timedOut: Bool) -> Void
        /// Entries that matched so far.
        var matched = 0
        /// Entries at or below this id were counted when it came.
        var through: Int64 = 0
    }

    /// Where a waiter is filed: one tenant's entries, or every tenant's.
    private enum Key: Hashable {
        case tenant(String?)
        case every
    }

    private struct State: Sendable {
        var nextId = 1
        var waiting: [Key: [Int: Waiter]] = [:]
        var keys: [Int: Key] = [:]
    }

    private let state = Mutex(State())
    /// How many wait, read without the lock: after every commit, the usual answer is "nobody".
    private let waitingCount = Atomic<Int>(0)
    /// How many of them a default tenant's entry concerns (the default tenant's and every
    /// tenant's): named tenants' waits cost the default path nothing, not even the lock.
    private let defaultWaitingCount = Atomic<Int>(0)

    public init() {}

    /// Waiters not yet answered.
    public var count: Int { state.withLock { $0.keys.count } }

    private static func key(_ filter: JournalFilter) -> Key {
        switch filter.tenant {
        case .all: .every
        case .only(let name): .tenant(name)
        }
    }

    /// Files `waiter`, which has `matched` entries through id `through` already; the journal calls
    /// it under its lock, so no commit falls between the count and the filing.
    func add(_ waiter: Waiter, matched: Int, through: Int64) -> Int {
        var waiter = waiter
        waiter.matched = matched
        waiter.through = through
        let key = Self.key(waiter.filter)
        return state.withLock { s in
            let id = s.nextId
            s.nextId += 1
            s.waiting[key, default: [:]][id] = waiter
            s.keys[id] = key
            publish(s)
            return id
        }
    }

    /// Takes the waiter out of the table; nil when it was already answered.
    func remove(_ id: Int) -> Waiter? {
        state.withLock { s in
            defer { publish(s) }
            guard let key = s.keys.removeValue(forKey: id) else { return nil }
            let waiter = s.waiting[key]?.removeValue(forKey: id)
            if s.waiting[key]?.isEmpty == true { s.waiting[key] = nil }
            return waiter
        }
    }

    /// Answers every waiter as timed out (the server is stopping: nobody should wait for its grace period).
    public func expireAll() {
        let all = state.withLock { s in
            defer {
                s = State(nextId: s.nextId)
                publish(s)
            }
            return s.waiting.values.flatMap(\.values)
        }
        for waiter in all { waiter.answer(true) }
    }

    /// Counts `entry` for the waiters of its tenant (and those of every tenant) whose filter it
    /// matches, and answers those that now have enough.
    func check(_ entry: JournalEntry) {
        let concerned = entry.tenant == nil ? defaultWaitingCount : waitingCount
        guard concerned.load(ordering: .relaxed) > 0 else { return }
        let satisfied = state.withLock { s -> [Waiter] in
            // The entry's tenant's waiters and those of every tenant: two lookups, no array made.
            var done: [Waiter] = []
            Self.count(entry, in: .tenant(entry.tenant), &s, done: &done)
            Self.count(entry, in: .every, &s, done: &done)
            if !done.isEmpty { publish(s) }
            return done
        }
        for waiter in satisfied { waiter.answer(false) }
    }

    /// Stores the counts read without the lock; called under it after every change.
    private func publish(_ s: State) {
        waitingCount.store(s.keys.count, ordering: .relaxed)
        let concerningDefault = (s.waiting[.tenant(nil)]?.count ?? 0) + (s.waiting[.every]?.count ?? 0)
        defaultWaitingCount.store(concerningDefault, ordering: .relaxed)
    }

    /// Counts `entry` for the waiters filed under `key` that it matches; moves those that now
    /// have enough to `done`.
    private static func count(_ entry: JournalEntry, in key: Key, _ s: inout State, done: inout [Waiter]) {
        guard let index = s.waiting.index(forKey: key) else { return }
        for (id, waiter) in s.waiting.values[index] where entry.id > waiter.through && waiter.filter.matches(entry) {
            if waiter.matched + 1 >= waiter.count {
                s.waiting.values[index][id] = nil
                s.keys[id] = nil
                done.append(waiter)
            } else {
                s.waiting.values[index][id]?.matched += 1
            }
        }
        if s.waiting.values[index].isEmpty { s.waiting.remove(at: index) }
    }

    /// After `tenant`'s entries were cleared: its waiters (and those of every tenant) count again
    /// from what is left (`matching`, called under the journal's lock), through id `through`.
    func recount(tenant: String?, through: Int64, matching: (JournalFilter) -> Int) {
        state.withLock { s in
            for key in [Key.tenant(tenant), .every] {
                guard var group = s.waiting[key] else { continue }
                for (id, waiter) in group {
                    var waiter = waiter
                    waiter.matched = matching(waiter.filter)
                    waiter.through = through
                    group[id] = waiter
                }
                s.waiting[key] = group
            }
        }
    }
}

extension Journal {
    /// Calls `answer(false)` as soon as at least `count` entries match `filter` (at once when they
    /// already do), unless `expire(id)` gets there first. Returns the id to pass to `expire`.
    /// `filter.limit` is ignored.
    public func wait(for filter: JournalFilter, count: Int, answer: @escaping @Sendable (_ timedOut: Bool) -> Void)
        -> Int
    {
        var filter = filter
        filter.limit = nil
        let (id, satisfied) = register(JournalWaiters.Waiter(filter: filter, count: count, answer: answer))
        if satisfied { waiters.remove(id)?.answer(false) }
        return id
    }

    /// Ends a wait that has run out: calls its `answer(true)` unless it was answered already.
    /// Returns whether it did.
    @discardableResult
    public func expire(_ waitId: Int) -> Bool {
        guard let waiter = waiters.remove(waitId) else { return false }
        waiter.answer(true)
        return true
    }
}
