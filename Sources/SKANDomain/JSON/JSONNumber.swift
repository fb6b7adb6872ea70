/// The one JSON number grammar (RFC 8259: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`)
/// and its value, read from bytes. The JSON parser and revenue's compact reader both read numbers
/// through it, so the two cannot disagree on a sign, a leading zero, an exponent or an overflow.
enum JSONNumber {
    /// Why the bytes at an offset are not a JSON number; `offset` is where a person should look.
    enum Failure: Error, Equatable {
        /// No digit where the number (after its minus sign) must start: `-`, `+1`, `-x`.
        case expectedDigit(offset: Int)
        /// `01`, `-00`: a zero cannot lead other digits; the offset is the number's start.
        case leadingZero(offset: Int)
        /// `1.`, `1.e5`: a point needs a digit after it.
        case expectedFractionDigit(offset: Int)
        /// `1e`, `1e+`: an exponent needs a digit.
        case expectedExponentDigit(offset: Int)
        /// Well formed, but beyond a Double (`1e999`); the number is `start..<end`.
        case outOfRange(start: Int, end: Int)
    }

    /// Reads the number that starts at `index` and moves `index` past it (the caller judges what
    /// follows). An integer that fits 64 bits is `.int`, exact; anything else is the Double nearest
    /// the decimal, as strtod gives it: an integer too long for Int64, a fraction, an exponent.
    @inline(__always)
    static func read(_ bytes: UnsafeBufferPointer<UInt8>, at index: inout Int) throws(Failure) -> JSONValue {
        let start = index
        let n = bytes.count
        let negative = index < n && bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        guard index < n, isDigit(bytes[index]) else { throw .expectedDigit(offset: index) }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < n, isDigit(bytes[index]) { throw .leadingZero(offset: start) }
        } else {
            skipDigits(bytes, &index)
        }
        let wholeEnd = index
        var isInteger = true
        if index < n, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard index < n, isDigit(bytes[index]) else { throw .expectedFractionDigit(offset: index) }
            skipDigits(bytes, &index)
        }
        if index < n, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < n, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < n, isDigit(bytes[index]) else { throw .expectedExponentDigit(offset: index) }
            skipDigits(bytes, &index)
        }
        if isInteger, let value = integer(bytes, from: negative ? start + 1 : start, to: wholeEnd, negative: negative) {
            return .int(value)
        }
        let text = UnsafeBufferPointer(rebasing: bytes[start..<index])
        if let value = shortDecimal(text) { return .double(value) }
        guard let value = Double(String(decoding: text, as: UTF8.self)), value.isFinite else {
            throw .outOfRange(start: start, end: index)
        }
        return .double(value)
    }

    /// The decimal digits `from..<to` as an Int64 (negated when `negative`, so Int64.min fits); nil
    /// for a byte that is not a digit, no digit at all, or a value beyond 64 bits. Query parameters'
    /// integers (`ParameterReader.parseInteger`) are read by it too.
    @inline(__always)
    static func integer(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int, negative: Bool) -> Int64? {
        guard from < to else { return nil }
        var value: Int64 = 0
        var k = from
        while k < to {
            let b = bytes[k]
            guard isDigit(b) else { return nil }
            let digit = Int64(b &- UInt8(ascii: "0"))
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (s, o2) = negative ? m.subtractingReportingOverflow(digit) : m.addingReportingOverflow(digit)
            guard !o1 && !o2 else { return nil }
            value = s
            k += 1
        }
        return value
    }

    /// A decimal without a sign or an exponent of at most 15 digits (`4.99`, `0.12`), read exactly
    /// without strtod: its digits as an integer are exact in a Double (below 2^53), so is the power
    /// of ten (up to 10^22), and one IEEE division of two exact values is correctly rounded
    /// (Clinger's fast path), so the result is the Double nearest the decimal, as strtod gives.
    /// Nil otherwise (strtod reads it).
    static func shortDecimal(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        var mantissa: Int64 = 0
        var digits = 0
        var fraction = -1
        for b in text {
            if b == UInt8(ascii: ".") {
                guard fraction < 0 else { return nil }
                fraction = 0
                continue
            }
            guard isDigit(b) else { return nil }
            mantissa = mantissa * 10 + Int64(b - UInt8(ascii: "0"))
            digits += 1
            if fraction >= 0 { fraction += 1 }
            guard digits <= 15 else { return nil }
        }
        guard digits > 0, fraction <= 22 else { return nil }
        return fraction > 0 ? Double(mantissa) / powersOfTen[fraction] : Double(mantissa)
    }

    /// 10^0 ... 10^22, every one exact in a Double.
    private static let powersOfTen: [Double] = (0...22).map { n in
        var p = 1.0
        for _ in 0..<n { p *= 10 }
        return p
    }

    @inline(__always) static func isDigit(_ b: UInt8) -> Bool { b &- UInt8(ascii: "0") < 10 }

    @inline(__always) private static func skipDigits(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int) {
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }
}
