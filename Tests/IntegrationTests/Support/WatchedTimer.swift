import Dispatch

@testable import SKANMock

/// The server's real timers, watched: each one set signals, so a test waits for the server to
/// hold an answer back (a `delay` fault) as for any event, not for a guessed time.
final class WatchedTimer: Sendable {
    private let set = DispatchSemaphore(value: 0)

    var timer: ServerTimer {
        ServerTimer(
            now: ServerTimer.dispatch.now,
            after: { [set] milliseconds, fire in
                ServerTimer.dispatch.after(milliseconds, fire)
                set.signal()
            })
    }

    /// Waits for the next timer to be set (at most 10 s, a failure rather than a hang).
    func waitForATimer() -> Bool { set.wait(timeout: .now() + 10) == .success }
}
