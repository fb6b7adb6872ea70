/// RFC 3339 timestamps with milliseconds in UTC ("2026-11-21T06:00:00.123Z") for the journal.
/// Computed arithmetically (Howard Hinnant's days-to-civil algorithm): no locale, no Foundation, no libc.
public enum RFC3339 {
    public static func format(milliseconds: Int64) -> String {
        String(decoding: bytes(milliseconds: milliseconds), as: UTF8.self)
    }

    public static func bytes(milliseconds: Int64) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(24)
        append(milliseconds: milliseconds, to: &out)
        return out
    }

    public static func append(milliseconds: Int64, to out: inout [UInt8]) {
        let seconds = floorDivide(milliseconds, 1000)
        let millis = Int(milliseconds - seconds * 1000)
        let days = floorDivide(seconds, 86_400)
        let secondOfDay = Int(seconds - days * 86_400)
        let (year, month, day) = civil(fromDays: days)
        digits(Int(year), count: 4, to: &out)
        out.append(UInt8(ascii: "-"))
        digits(month, count: 2, to: &out)
        out.append(UInt8(ascii: "-"))
        digits(day, count: 2, to: &out)
        out.append(UInt8(ascii: "T"))
        digits(secondOfDay / 3600, count: 2, to: &out)
        out.append(UInt8(ascii: ":"))
        digits(secondOfDay / 60 % 60, count: 2, to: &out)
        out.append(UInt8(ascii: ":"))
        digits(secondOfDay % 60, count: 2, to: &out)
        out.append(UInt8(ascii: "."))
        digits(millis, count: 3, to: &out)
        out.append(UInt8(ascii: "Z"))
    }

    /// (year, month 1-12, day 1-31) of the proleptic Gregorian calendar for days since 1970-01-01.
    static func civil(fromDays days: Int64) -> (Int64, Int, Int) {
        let z = days + 719_468
        let era = floorDivide(z, 146_097)
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = Int(doy - (153 * mp + 2) / 5 + 1)
        let m = Int(mp < 10 ? mp + 3 : mp - 9)
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        return (y, m, d)
    }

    private static func digits(_ value: Int, count: Int, to out: inout [UInt8]) {
        var divisor = 1
        for _ in 1..<count { divisor *= 10 }
        var v = max(0, value)
        if v >= divisor * 10 { v %= divisor * 10 }
        while divisor > 0 {
            out.append(UInt8(ascii: "0") + UInt8(v / divisor % 10))
            divisor /= 10
        }
    }
}
