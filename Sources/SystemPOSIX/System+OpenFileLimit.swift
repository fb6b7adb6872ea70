/// The descriptor budget of the process. A Mac starts every shell with a soft limit of 256 open
/// descriptors (hard: unlimited), below what a server with 1,024 connections needs; Linux usually
/// starts at 1,024. Servers raise the soft limit themselves (nginx's `worker_rlimit_nofile`, NIO's
/// users do it at start), up to the hard limit, which only the administrator can raise.
public struct OpenFileLimit: Sendable, Equatable {
    /// The soft limit in force after the call.
    public let soft: Int
    /// The hard limit: the ceiling of the soft one (`Int.max` when unlimited).
    public let hard: Int
    /// What was asked for.
    public let wanted: Int

    public init(soft: Int, hard: Int, wanted: Int) {
        self.soft = soft
        self.hard = hard
        self.wanted = wanted
    }

    /// Whether the soft limit covers what was asked for.
    public var suffices: Bool { soft >= wanted }
}

extension System {
    /// Darwin refuses a soft limit above OPEN_MAX (10,240, `sys/syslimits.h`) with EINVAL whatever
    /// the hard limit says, so a refused raise is tried again at this ceiling.
    static let darwinOpenMax: UInt64 = 10_240

    /// Raises the soft `RLIMIT_NOFILE` to `wanted` descriptors, or as close as the hard limit (and
    /// on Darwin OPEN_MAX) allows. Never lowers it.
    public static func raiseOpenFileLimit(to wanted: Int) -> OpenFileLimit {
        let wanted = max(0, wanted)
        let (soft, hard) = openFileLimits()
        var applied = soft
        let target = min(UInt64(wanted), hard)
        if target > soft {
            if setOpenFileSoftLimit(target, hard: hard) == nil {
                applied = target
            } else if target > darwinOpenMax, darwinOpenMax > soft,
                setOpenFileSoftLimit(darwinOpenMax, hard: hard) == nil
            {
                applied = darwinOpenMax
            }
        }
        return OpenFileLimit(soft: clampedInt(applied), hard: clampedInt(hard), wanted: wanted)
    }

    /// The limits as they stand, without changing them.
    public static func currentOpenFileLimit() -> OpenFileLimit {
        let (soft, hard) = openFileLimits()
        return OpenFileLimit(soft: clampedInt(soft), hard: clampedInt(hard), wanted: 0)
    }

    private static func clampedInt(_ value: UInt64) -> Int {
        value >= UInt64(Int.max) ? Int.max : Int(value)
    }
}
