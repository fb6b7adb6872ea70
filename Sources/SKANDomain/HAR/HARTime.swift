/// HAR's `startedDateTime`: ISO 8601 with any number of fractional digits and a `Z` or an offset
/// (`2026-11-28T13:24:57.123456+01:00` from mitmproxy, `...57.123Z` from a browser), read to
/// milliseconds since 1970 in UTC. The journal's own form is the narrower `RFC3339`.
public enum HARTime {
    /// Milliseconds since 1970, or nil for text that is not such a time.
    public static func parse(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20,
            bytes[19] == UInt8(ascii: ".") || bytes[19] == UInt8(ascii: "Z")
                || bytes[19] == UInt8(ascii: "+") || bytes[19] == UInt8(ascii: "-")
        else { return nil }
        var index = 19
        var millis: [UInt8] = Array("000".utf8)
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            var digits = 0
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                if digits < 3 { millis[digits] = bytes[index] }
                digits += 1
                index += 1
            }
            guard digits > 0 else { return nil }
        }
        guard index < bytes.count else { return nil }
        var offsetMinutes: Int64 = 0
        switch bytes[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            guard index + 1 == bytes.count else { return nil }
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let rest = bytes[(index + 1)...]
            let digits = rest.filter { $0 != UInt8(ascii: ":") }
            guard digits.count == 4, rest.count == 4 || rest.count == 5,
                digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
            else { return nil }
            let value = digits.map { Int64($0 - UInt8(ascii: "0")) }
            offsetMinutes = (value[0] * 10 + value[1]) * 60 + value[2] * 10 + value[3]
            if bytes[index] == UInt8(ascii: "-") { offsetMinutes = -offsetMinutes }
        default:
            return nil
        }
        let utc = String(decoding: bytes[0..<19] + [UInt8(ascii: ".")] + millis + [UInt8(ascii: "Z")], as: UTF8.self)
        return RFC3339.parse(utc).map { $0 - offsetMinutes * 60_000 }
    }
}
