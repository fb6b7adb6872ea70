import Foundation
import SystemPOSIX

@testable import SKANMock

/// The server's timer and monotonic clock, moved by hand: nothing fires until the test says so.
/// A test waits for a timer to be set as for any event (`waitForTimer`), never by sleeping.
final class ManualTimer: Sendable {
    private struct Waiting {
        let due: Int64
        let milliseconds: Int
        let fire: ServerTimer.Fire
    }

    private struct State {
        var now: Int64 = 1_000_000
        var waiting: [Waiting] = []
    }

    private let state = Mutex(State())
    /// Broadcast when a timer is set, so a test can wait for one.
    private let set = NSCondition()

    var timer: ServerTimer {
        ServerTimer(
            now: { [state] in state.withLock { $0.now } },
            after: { [state, set] milliseconds, fire in
                set.lock()
                state.withLock {
                    $0.waiting.append(
                        Waiting(due: $0.now + Int64(milliseconds) * 1_000, milliseconds: milliseconds, fire: fire))
                }
                set.broadcast()
                set.unlock()
            })
    }

    /// The delays asked for and not fired yet, in milliseconds.
    var pending: [Int] { state.withLock { $0.waiting.map(\.milliseconds) } }

    /// Fires every timer set so far, oldest first.
    func fireAll() {
        let due = state.withLock { state in
            defer { state.waiting = [] }
            return state.waiting
        }
        for timer in due { timer.fire() }
    }

    /// Moves the clock on by `milliseconds`, then fires every timer now due, earliest first.
    func advance(milliseconds: Int) {
        let due = state.withLock { state -> [Waiting] in
            state.now += Int64(milliseconds) * 1_000
            let now = state.now
            let due = state.waiting.filter { $0.due <= now }.sorted { $0.due < $1.due }
            state.waiting.removeAll { $0.due <= now }
            return due
        }
        for timer in due { timer.fire() }
    }

    /// Waits until a timer of `milliseconds` is set and not fired (at most 10 s, a failure
    /// rather than a hang); whether one is.
    @discardableResult
    func waitForTimer(_ milliseconds: Int) -> Bool {
        let deadline = Date().addingTimeInterval(10)
        set.lock()
        defer { set.unlock() }
        while !pending.contains(milliseconds) {
            guard set.wait(until: deadline) else { return pending.contains(milliseconds) }
        }
        return true
    }
}
