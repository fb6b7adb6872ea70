import SystemPOSIX

/// Runs completions in the order their requests arrived, whatever order they come in: shadow mode
/// journals a request when the upstream has answered it, and the upstream answers in its own order,
/// but `--resume` and `skan-mock report` rebuild a device from its journal lines in id order, which
/// must be the order the device's requests were answered (its state changed at arrival): they rely
/// on journal order being arrival order. Each completion waits at most for the ones that arrived
/// before it, and every exchange ends within the upstream timeout, so the wait is bounded by it
/// (and by an injected delay of the answer, which the entry waits for: `ShadowComparison`).
///
/// Completions run under the lock, one at a time in ticket order; they must not call back in.
final class ArrivalOrder: Sendable {
    private struct State {
        var nextTicket = 0
        /// The ticket whose completion runs next.
        var nextToRun = 0
        /// Completions that came before their turn.
        var waiting: [Int: @Sendable () -> Void] = [:]
    }

    private let state = Mutex(State())

    /// Taken when a request arrives.
    func ticket() -> Int {
        state.withLock { state in
            defer { state.nextTicket += 1 }
            return state.nextTicket
        }
    }

    /// Runs `completion` now if every earlier ticket has run, else when they have.
    func complete(_ ticket: Int, _ completion: @escaping @Sendable () -> Void) {
        state.withLock { state in
            state.waiting[ticket] = completion
            while let next = state.waiting.removeValue(forKey: state.nextToRun) {
                next()
                state.nextToRun += 1
            }
        }
    }

    /// Completions held back for an earlier one (for tests and health).
    var held: Int { state.withLock { $0.waiting.count } }
}
