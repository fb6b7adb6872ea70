import ByteWords

/// RFC 3339 timestamps with milliseconds in UTC ("2026-11-21T06:00:00.123Z") for the journal.
/// Computed arithmetically (Howard Hinnant's days-to-civil algorithm): no locale, no Foundation, no libc.
public enum RFC3339 {
    /// Milliseconds since 1970 of a time in the journal's own form (`2026-11-21T06:00:00.000Z`),
    /// or nil for any other text.
    public static func parse(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        guard bytes.count == 24, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes[10] == UInt8(ascii: "T"),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"), bytes[19] == UInt8(ascii: "."),
            bytes[23] == UInt8(ascii: "Z")
        else { return nil }
        func number(_ range: Range<Int>) -> Int64? {
            var value: Int64 = 0
            for byte in bytes[range] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), let hour = number(11..<13),
            let minute = number(14..<16), let second = number(17..<19), let millis = number(20..<23),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        // Days from civil (Howard Hinnant's algorithm), the inverse of `civil(fromDays:)`.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return ((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + millis
    }

    /// A time in Unix seconds, from a client or a window end: pinned to the Int64 range of
    /// milliseconds rather than trapping on an absurd one.
    public static func format(seconds: Int64) -> String {
        format(milliseconds: saturatingMilliseconds(seconds: seconds))
    }

    public static func format(milliseconds: Int64) -> String {
        String(decoding: bytes(milliseconds: milliseconds), as: UTF8.self)
    }

    public static func bytes(milliseconds: Int64) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(24)
        append(milliseconds: milliseconds, to: &out)
        return out
    }

    public static func append<Out: ByteAppending & ~Copyable>(milliseconds: Int64, to out: inout Out) {
        let seconds = floorDivide(milliseconds, 1000)
        // The remainder, not `milliseconds - seconds * 1000`, which overflows near Int64.min.
        let remainder = Int(milliseconds % 1000)
        let millis = remainder < 0 ? remainder + 1000 : remainder
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

    private static func digits<Out: ByteAppending & ~Copyable>(_ value: Int, count: Int, to out: inout Out) {
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
