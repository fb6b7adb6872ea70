/// The SKAN 4 measurement windows, with the SKAN snippet's own boundaries: a window starts at its
/// lower bound inclusive and ends before its upper bound, so exactly 48 h after the first call is p1,
/// exactly 7 days is p2 and exactly 35 days is over.
public enum SKANWindow: String, Sendable, CaseIterable, Equatable {
    case p0, p1, p2, over

    public static let p0EndSeconds: Int64 = 3600 * 24 * 2
    public static let p1EndSeconds: Int64 = 3600 * 24 * 7
    public static let p2EndSeconds: Int64 = 3600 * 24 * 35

    /// The window a device is in, given its first-call timestamp (Unix seconds) and the clock.
    /// A first call in the future counts as p0, like the snippet's `getCurrentSkanWindow`.
    public static func at(firstCallSeconds: Int64, nowMilliseconds: Int64) -> SKANWindow {
        let elapsed = saturatingSubtract(floorDivide(nowMilliseconds, 1000), firstCallSeconds)
        if elapsed < p0EndSeconds { return .p0 }
        if elapsed < p1EndSeconds { return .p1 }
        if elapsed < p2EndSeconds { return .p2 }
        return .over
    }

    /// 0, 1, 2 for the measurement windows; nil once over.
    public var index: Int? {
        switch self {
        case .p0: return 0
        case .p1: return 1
        case .p2: return 2
        case .over: return nil
        }
    }

    public static func measurement(_ index: Int) -> SKANWindow {
        switch index {
        case 0: return .p0
        case 1: return .p1
        default: return .p2
        }
    }

    /// Seconds after the first call at which this window begins and ends (end exclusive).
    public var bounds: (start: Int64, end: Int64) {
        switch self {
        case .p0: return (0, SKANWindow.p0EndSeconds)
        case .p1: return (SKANWindow.p0EndSeconds, SKANWindow.p1EndSeconds)
        case .p2: return (SKANWindow.p1EndSeconds, SKANWindow.p2EndSeconds)
        case .over: return (SKANWindow.p2EndSeconds, Int64.max)
        }
    }
}
