import SKANDomain
import SystemPOSIX

/// The machine's real-time clock. SKANDomain has no clock of its own (it touches no libc); the
/// app hands this one in.
public struct SystemClock: SKANClock {
    public init() {}

    public func nowMilliseconds() -> Int64 { System.realtimeMilliseconds() }
}
