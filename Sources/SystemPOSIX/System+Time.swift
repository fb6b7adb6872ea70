#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Wall-clock time and UTC calendar dates: the same calls on glibc and Darwin, written once.
extension System {
    // MARK: - Time

    /// Milliseconds since the Unix epoch (`CLOCK_REALTIME`; in Darwin's `clock_gettime` since macOS 10.12).
    public static func realtimeMilliseconds() -> Int64 {
        var ts = timespec()
        _ = clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
    }

    /// Seconds since the Unix epoch (`time`).
    public static func nowSeconds() -> Int {
        Int(time(nil))
    }

    /// The UTC calendar date and time of `seconds` since the epoch (`gmtime_r`).
    public static func utcCalendar(_ seconds: Int) -> CalendarTime {
        var time = time_t(seconds)
        var parts = tm()
        _ = gmtime_r(&time, &parts)
        return CalendarTime(
            year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday),
            hour: Int(parts.tm_hour), minute: Int(parts.tm_min), second: Int(parts.tm_sec)
        )
    }

    /// Seconds since the epoch of a UTC calendar date and time (`timegm`; out-of-range fields carry over).
    public static func utcSeconds(_ date: CalendarTime) -> Int {
        var parts = tm()
        parts.tm_year = Int32(date.year - 1900)
        parts.tm_mon = Int32(date.month - 1)
        parts.tm_mday = Int32(date.day)
        parts.tm_hour = Int32(date.hour)
        parts.tm_min = Int32(date.minute)
        parts.tm_sec = Int32(date.second)
        return Int(timegm(&parts))
    }
}
