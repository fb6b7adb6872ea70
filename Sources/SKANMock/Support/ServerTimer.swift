import Dispatch

/// The server's own time, for its timeouts and periods: delayed answers, a journal wait's timeout,
/// the event stream's heartbeat, the model watcher's tick. The monotonic clock and dispatch timers
/// in the server; a clock and timers moved by hand in tests, so that nothing there waits on real
/// time. Not the SKAN clock, which time travel moves and which never schedules anything.
struct ServerTimer: Sendable {
    typealias Fire = @Sendable () -> Void

    /// Monotonic microseconds.
    let now: @Sendable () -> Int64
    /// Runs `fire` once, `milliseconds` from now, on another thread; never blocks the caller.
    /// A timer cannot be cancelled: what it fires checks whether it still has work to do.
    let after: @Sendable (_ milliseconds: Int, _ fire: @escaping Fire) -> Void

    /// The monotonic clock, and timers on a global queue, never a blocked thread.
    static let dispatch = ServerTimer(
        now: { MonotonicClock.microseconds() },
        after: { milliseconds, fire in
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(milliseconds), execute: fire)
        })
}
