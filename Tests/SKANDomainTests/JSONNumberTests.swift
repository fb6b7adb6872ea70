import Testing

@testable import SKANDomain

/// The one JSON number grammar, at every edge, once: the parser and revenue's compact reader only
/// map its answers (their own tests check that mapping).
@Suite struct JSONNumberTests {
    /// Reads `text` from its start: the value and where reading stopped, or why not.
    static func read(_ text: String) -> Result<(JSONValue, Int), JSONNumber.Failure> {
        Array(text.utf8).withUnsafeBufferPointer { bytes in
            var index = 0
            return Result { () throws(JSONNumber.Failure) in
                let value = try JSONNumber.read(bytes, at: &index)
                return (value, index)
            }
        }
    }

    static func value(_ text: String) -> JSONValue? {
        guard case .success(let (value, end)) = read(text), end == text.utf8.count else { return nil }
        return value
    }

    static func failure(_ text: String) -> JSONNumber.Failure? {
        guard case .failure(let failure) = read(text) else { return nil }
        return failure
    }

    /// What Singular's clients send (amounts, as the SDKs' JSON writers print them) and the integers'
    /// edges: an integer that fits 64 bits stays exact, one that does not becomes a Double.
    @Test(arguments: [
        ("0", JSONValue.int(0)), ("-0", .int(0)), ("7", .int(7)), ("15530", .int(15530)), ("-42", .int(-42)),
        ("9223372036854775807", .int(.max)), ("-9223372036854775808", .int(.min)),
        ("9223372036854775808", .double(9_223_372_036_854_775_808)),
        ("-9223372036854775809", .double(-9_223_372_036_854_775_808)),
        ("4.99", .double(4.99)), ("0.42", .double(0.42)), ("12.5", .double(12.5)), ("0.1000", .double(0.1)),
        ("0.30000000000000004", .double(0.30000000000000004)), ("123456789012.345", .double(123_456_789_012.345)),
        ("-1.5", .double(-1.5)), ("1e3", .double(1000)), ("1E3", .double(1000)), ("1e+3", .double(1000)),
        ("1.5E-2", .double(0.015)), ("0e0", .double(0)), ("-0.0", .double(-0.0)), ("1e-999", .double(0)),
        ("0.000000000000000000001", .double(1e-21))
    ])
    func reads(_ text: String, _ expected: JSONValue) {
        #expect(Self.value(text) == expected, "\(text)")
    }

    /// Each rule broken, and the offset a person is sent to. A list of its own, typed: Swift 6.0.3's
    /// compiler crashes on a string interpolation inside `@Test(arguments:)`.
    static let refusals: [(String, JSONNumber.Failure)] = [
        ("", .expectedDigit(offset: 0)), ("-", .expectedDigit(offset: 1)),
        ("+1", .expectedDigit(offset: 0)), ("-x", .expectedDigit(offset: 1)), (".5", .expectedDigit(offset: 0)),
        ("--1", .expectedDigit(offset: 1)), ("01", .leadingZero(offset: 0)), ("-01", .leadingZero(offset: 0)),
        ("00", .leadingZero(offset: 0)), ("1.", .expectedFractionDigit(offset: 2)),
        ("1.e5", .expectedFractionDigit(offset: 2)), ("-0.", .expectedFractionDigit(offset: 3)),
        ("1e", .expectedExponentDigit(offset: 2)), ("1e+", .expectedExponentDigit(offset: 3)),
        ("1E-x", .expectedExponentDigit(offset: 3)), ("1e999", .outOfRange(start: 0, end: 5)),
        ("-1e999", .outOfRange(start: 0, end: 6)),
        ("1\(String(repeating: "0", count: 400))", .outOfRange(start: 0, end: 401))
    ]

    @Test(arguments: refusals)
    func refuses(_ text: String, _ expected: JSONNumber.Failure) {
        #expect(Self.failure(text) == expected, "\(text)")
    }

    /// Reading stops at the first byte that cannot continue the number; what follows is the caller's.
    @Test(arguments: [("12,", 2), ("1}", 1), ("4.99}", 4), ("1e3]", 3), ("0x1", 1), ("1.5.2", 3), ("-7 ", 2)])
    func stopsAtTheNumbersEnd(_ text: String, _ end: Int) {
        guard case .success(let (_, stop)) = Self.read(text) else {
            Issue.record("\(text) did not read")
            return
        }
        #expect(stop == end, "\(text)")
    }

    /// The number starts where it is asked to, not at the buffer's start.
    @Test func readsFromAnOffset() {
        let bytes = Array(#"{"USD":4.99}"#.utf8)
        let (value, end) = bytes.withUnsafeBufferPointer { buffer in
            var index = 7
            let value = try? JSONNumber.read(buffer, at: &index)
            return (value, index)
        }
        #expect(value == .double(4.99))
        #expect(end == 11)
    }

    /// Query parameters' integers share the digits' reading: leading zeros allowed there, 64 bits.
    @Test(arguments: [
        ("007", Int64?.some(7)), ("-5", -5), ("9223372036854775807", .max), ("-9223372036854775808", .min),
        ("9223372036854775808", nil), ("", nil), ("-", nil), ("+1", nil), ("1.0", nil), ("1e3", nil), (" 1", nil)
    ])
    func parameterIntegers(_ text: String, _ expected: Int64?) {
        #expect(ParameterReader.parseInteger(text) == expected, "\(text)")
    }

    /// Short decimals are read without strtod: for digits of every length up to 15 with the point
    /// anywhere (and past the fast path's limits), the Double is strtod's, bit for bit.
    @Test func shortDecimalsReadAsStrtodReadsThem() {
        var seed: UInt64 = 0x2545_F491_4F6C_DD1D
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(seed >> 33) % bound
        }
        for length in 1...18 {
            for _ in 0..<400 {
                var digits = (0..<length).map { _ in Character(String(next(10))) }
                if next(3) == 0 { digits[0] = "0" }
                let point = next(length + 1)
                let text = point == length ? String(digits) : String(digits[..<point]) + "." + String(digits[point...])
                let expected = Double(text)
                let fast = Array(text.utf8).withUnsafeBufferPointer { JSONNumber.shortDecimal($0) }
                if let fast {
                    #expect(fast.bitPattern == expected?.bitPattern, "\(text)")
                } else {
                    #expect(length > 15 || point == 0, "\(text) left to strtod")
                }
            }
        }
        #expect(Array("4.99".utf8).withUnsafeBufferPointer { JSONNumber.shortDecimal($0) } == 4.99)
        #expect(Array("1.2.3".utf8).withUnsafeBufferPointer { JSONNumber.shortDecimal($0) } == nil)
    }

    /// Every number the grammar reads is the Double strtod reads from the same text (or, for an
    /// integer that fits, that integer exactly).
    @Test(arguments: ["4.99", "0.1", "1e-7", "2.5e10", "-3.75", "9007199254740993", "1.7976931348623157e308"])
    func agreesWithStrtod(_ text: String) {
        switch Self.value(text) {
        case .int(let value)?: #expect(Double(text) == Double(value))
        case .double(let value)?: #expect(value.bitPattern == Double(text)?.bitPattern, "\(text)")
        default: Issue.record("\(text) did not read")
        }
    }
}
