import SystemPOSIX

/// Runs completions in the order their requests arrived, whatever order they come in: shadow mode
/// journals a request when the upstream has answered it, and the upstream answers in its own order,
/// but `--resume` and `skan-mock report` rebuild a device from its journal lines in id order, which
/// must be the order the device's requests were answered (its state changed at arrival): they rely
/// on journal order being arrival order.
///
/// What waits is bounded in count and bytes (`Limits`): an upstream that never answers used to
/// hold every request of a flood for its whole timeout (3-4 GiB at 60 s). Past a limit the oldest
/// entry is given up (`Entry.givenUp`: journaled as not sent to the upstream, its late reply
/// ignored) and the entries after it run in turn, so the journal keeps arrival order and the
/// memory comes back when the burst ends.
///
/// Completions run under the lock, one at a time in ticket order; they must not call back in.
final class ArrivalOrder: Sendable {
    /// One request waiting for its turn: what it holds, and how it ends when it is given up.
    protocol Entry: AnyObject, Sendable {
        /// The bytes it holds (its request and answer), counted against `Limits.bytes`.
        var heldBytes: Int { get }
        /// Its completion when it is given up, with the sizes that made it so.
        func givenUp(waiting: Int, bytes: Int) -> @Sendable () -> Void
    }

    struct Limits: Sendable, Equatable {
        var entries: Int
        var bytes: Int

        /// Twice the upstream client's queue (4,096 waiting and 64 in flight) and 64 MiB.
        static let standard = Limits(entries: 8192, bytes: 64 << 20)
    }

    private struct Slot {
        var entry: any Entry
        var completion: (@Sendable () -> Void)?
    }

    private struct State {
        var nextTicket = 0
        /// The ticket whose completion runs next.
        var nextToRun = 0
        /// Every ticket that has not run, with its completion once it came.
        var slots: [Int: Slot] = [:]
        var bytes = 0
        var givenUp = 0

        /// Runs every completion whose turn has come.
        mutating func drain() {
            while let completion = slots[nextToRun]?.completion {
                remove(nextToRun)
                nextToRun += 1
                completion()
            }
            // A burst's table is given back, not kept at its largest.
            if slots.isEmpty && slots.capacity > 64 { slots = [:] }
        }

        mutating func remove(_ ticket: Int) {
            if let slot = slots.removeValue(forKey: ticket) { bytes -= slot.entry.heldBytes }
        }
    }

    let limits: Limits
    private let state = Mutex(State())

    init(limits: Limits = .standard) {
        self.limits = Limits(entries: max(1, limits.entries), bytes: max(0, limits.bytes))
    }

    /// Takes the next place in arrival order for the entry `make` builds with its ticket. When
    /// that puts what waits over a limit, the oldest entries are given up, in order.
    func enter<E: Entry>(_ make: (Int) -> E) -> E {
        state.withLock { state in
            let ticket = state.nextTicket
            state.nextTicket += 1
            let entry = make(ticket)
            state.slots[ticket] = Slot(entry: entry)
            state.bytes += entry.heldBytes
            while state.nextToRun < ticket,
                state.slots.count > limits.entries || state.bytes > limits.bytes,
                let oldest = state.slots[state.nextToRun]
            {
                let completion = oldest.entry.givenUp(waiting: state.slots.count, bytes: state.bytes)
                state.slots[state.nextToRun]?.completion = completion
                state.givenUp += 1
                state.drain()
            }
            return entry
        }
    }

    /// Runs `completion` now if every earlier ticket has run, else when they have; nothing when
    /// the ticket was given up already.
    func complete(_ ticket: Int, _ completion: @escaping @Sendable () -> Void) {
        state.withLock { state in
            guard state.slots[ticket] != nil, state.slots[ticket]?.completion == nil else { return }
            state.slots[ticket]?.completion = completion
            state.drain()
        }
    }

    /// Entries waiting for their turn or their reply, and the bytes they hold (for tests and health).
    var waiting: (entries: Int, bytes: Int) { state.withLock { ($0.slots.count, $0.bytes) } }
    /// Completions held back for an earlier one.
    var held: Int { state.withLock { $0.slots.values.filter { $0.completion != nil }.count } }
    /// Entries given up since the start.
    var givenUp: Int { state.withLock { $0.givenUp } }
}
