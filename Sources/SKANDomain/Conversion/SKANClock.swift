import SystemPOSIX

/// Wall-clock time, injected so that windows (48 h, 7 d, 35 d) can be tested without waiting and a
/// QA session can move a device through its windows ("time travel").
public protocol SKANClock: Sendable {
    /// Milliseconds since the Unix epoch.
    func nowMilliseconds() -> Int64
}

extension SKANClock {
    /// Whole Unix seconds, the unit every SKAN timestamp is sent in.
    public func nowSeconds() -> Int64 { floorDivide(nowMilliseconds(), 1000) }
}

/// A clock that stands still until told to move; for tests.
public final class ManualClock: SKANClock {
    private let now: Mutex<Int64>

    public init(milliseconds: Int64) { now = Mutex(milliseconds) }
    public convenience init(seconds: Int64) { self.init(milliseconds: seconds * 1000) }

    public func nowMilliseconds() -> Int64 { now.withLock { $0 } }
    public func set(milliseconds: Int64) { now.withLock { $0 = milliseconds } }
    public func set(seconds: Int64) { set(milliseconds: seconds * 1000) }
    public func advance(seconds: Int64) { now.withLock { $0 += seconds * 1000 } }
}

/// Another clock moved by a settable offset, so the running server can be sent into the future
/// (e.g. past 48 h to reach p1) without touching the system clock.
public final class OffsetClock: SKANClock {
    private let base: any SKANClock
    /// Read on every request, changed only by the admin API: an atomic, not a lock.
    private let offset: Atomic<Int64>

    public init(base: any SKANClock, offsetSeconds: Int64 = 0) {
        self.base = base
        offset = Atomic(offsetSeconds)
    }

    public var offsetSeconds: Int64 { offset.load(ordering: .relaxed) }

    public func setOffset(seconds: Int64) { offset.store(seconds, ordering: .relaxed) }
    public func advance(seconds: Int64) { offset.add(seconds, ordering: .relaxed) }

    /// Adds `seconds` when the offset stays within `limit` of the real time; the new offset, or nil
    /// (nothing changed) past it. Concurrent advances all count: each is one compare-and-swap.
    public func advance(seconds: Int64, within limit: ClosedRange<Int64>) -> Int64? {
        var current = offsetSeconds
        while true {
            let (sum, overflow) = current.addingReportingOverflow(seconds)
            guard !overflow, limit.contains(sum) else { return nil }
            let swapped = offset.compareExchange(expected: current, desired: sum, ordering: .relaxed)
            if swapped.exchanged { return sum }
            current = swapped.original
        }
    }

    public func nowMilliseconds() -> Int64 { base.nowMilliseconds() + offsetSeconds * 1000 }
}

/// Division rounding toward negative infinity, so times before 1970 still fall in the right second/day.
@inline(__always)
func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
    let q = a / b
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
}
