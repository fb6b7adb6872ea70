import SystemPOSIX

@testable import SKANMock

/// The delayed answers' timer, moved by hand: nothing fires until the test says so.
final class ManualTimer: Sendable {
    private let waiting = Mutex<[(milliseconds: Int, fire: @Sendable () -> Void)]>([])

    var timer: PendingDelays.Timer {
        { [waiting] milliseconds, fire in waiting.withLock { $0.append((milliseconds, fire)) } }
    }

    /// The delays asked for and not fired yet, in milliseconds.
    var pending: [Int] { waiting.withLock { $0.map(\.milliseconds) } }

    /// Fires every timer set so far, oldest first.
    func fireAll() {
        let due = waiting.withLock { waiting in
            defer { waiting = [] }
            return waiting
        }
        for timer in due { timer.fire() }
    }
}
