import SystemPOSIX

/// Callers waiting for the journal to hold enough matching entries (`/__admin/requests/wait`), so a
/// test can wait for a request without sleeping and without holding a thread.
///
/// Each waiter is answered exactly once: whoever removes it from the table (a commit that satisfied
/// it, or its timeout) answers it; everyone else finds it gone. Checks run after a commit, outside
/// the journal's lock, so a waiter's callback may query the journal.
public final class JournalWaiters: Sendable {
    /// One registered waiter: what it waits for and how to answer it.
    struct Waiter: Sendable {
        let filter: JournalFilter
        let count: Int
        /// Called once, with `true` when the wait ran out before `count` entries matched.
        let answer: @Sendable (_ timedOut: Bool) -> Void
    }

    private struct State: Sendable {
        var nextId = 1
        var waiting: [Int: Waiter] = [:]
    }

    private let state = Mutex(State())
    /// How many wait, read without the lock: after every commit, the usual answer is "nobody".
    private let waitingCount = Atomic<Int>(0)

    public init() {}

    /// Waiters not yet answered.
    public var count: Int { state.withLock { $0.waiting.count } }

    func add(_ waiter: Waiter) -> Int {
        state.withLock { s in
            let id = s.nextId
            s.nextId += 1
            s.waiting[id] = waiter
            waitingCount.store(s.waiting.count, ordering: .relaxed)
            return id
        }
    }

    /// Takes the waiter out of the table; nil when it was already answered.
    func remove(_ id: Int) -> Waiter? {
        state.withLock { s in
            defer { waitingCount.store(s.waiting.count, ordering: .relaxed) }
            return s.waiting.removeValue(forKey: id)
        }
    }

    /// Answers every waiter as timed out (the server is stopping: nobody should wait for its grace period).
    public func expireAll() {
        let all = state.withLock { s in
            defer {
                s.waiting.removeAll()
                waitingCount.store(0, ordering: .relaxed)
            }
            return Array(s.waiting.values)
        }
        for waiter in all { waiter.answer(true) }
    }

    /// Answers every waiter whose filter now matches at least `count` entries. `matching` counts
    /// entries for a filter (the journal's `count`), called outside this lock.
    func check(matching: (JournalFilter) -> Int) {
        guard waitingCount.load(ordering: .relaxed) > 0 else { return }
        let candidates = state.withLock { s in s.waiting.isEmpty ? [] : Array(s.waiting) }
        for (id, waiter) in candidates where matching(waiter.filter) >= waiter.count {
            remove(id)?.answer(false)
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
        let id = waiters.add(JournalWaiters.Waiter(filter: filter, count: count, answer: answer))
        waiters.check(matching: { self.count($0) })
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
