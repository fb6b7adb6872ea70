import Dispatch

/// Durations for the journal and uptime: monotonic, so a wall-clock jump cannot make them negative.
enum MonotonicClock {
    static func microseconds() -> Int64 { Int64(DispatchTime.now().uptimeNanoseconds / 1_000) }
}
