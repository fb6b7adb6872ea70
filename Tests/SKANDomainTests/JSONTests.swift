import Testing

@testable import SKANDomain

@Suite struct JSONParserTests {
    @Test func parsesScalars() throws {
        #expect(try JSONParser.parse("null") == .null)
        #expect(try JSONParser.parse("true") == .bool(true))
        #expect(try JSONParser.parse(" false ") == .bool(false))
        #expect(try JSONParser.parse("0") == .int(0))
        #expect(try JSONParser.parse("-42") == .int(-42))
        #expect(try JSONParser.parse("1.5") == .double(1.5))
        #expect(try JSONParser.parse("1e3") == .double(1000))
        #expect(try JSONParser.parse("-0.25E-2") == .double(-0.0025))
        #expect(try JSONParser.parse("\"x\"") == .string("x"))
    }

    @Test func keepsIntegersExact() throws {
        #expect(try JSONParser.parse("9223372036854775807") == .int(Int64.max))
        #expect(try JSONParser.parse("-9223372036854775808") == .int(Int64.min))
        #expect(try JSONParser.parse("1763700000123") == .int(1_763_700_000_123))
        // One past Int64.max no longer fits: it becomes a Double.
        #expect(try JSONParser.parse("9223372036854775808") == .double(9_223_372_036_854_775_808))
    }

    @Test func keepsObjectKeyOrder() throws {
        let v = try JSONParser.parse(#"{"z":1,"a":2,"m":{"y":true,"b":null}}"#)
        #expect(v.objectValue?.map(\.key) == ["z", "a", "m"])
        #expect(v["m"]?.objectValue?.map(\.key) == ["y", "b"])
        #expect(v["a"] == .int(2))
    }

    @Test func decodesEscapes() throws {
        let v = try JSONParser.parse(#""a\"b\\c\/d\b\f\n\r\t\u00e9\u20AC\ud83d\ude00""#)
        #expect(v == .string("a\"b\\c/d\u{8}\u{C}\n\r\té€😀"))
        #expect(try JSONParser.parse("\"héllo €\"") == .string("héllo €"))
        // A lone surrogate becomes U+FFFD rather than failing.
        #expect(try JSONParser.parse(#""\ud800x""#) == .string("\u{FFFD}x"))
    }

    @Test func parsesArrays() throws {
        #expect(
            try JSONParser.parse("[1, [2, []], {}]") == .array([.int(1), .array([.int(2), .array([])]), .object([])]))
    }

    @Test(arguments: [
        ("", 0, "unexpected end of input, expected a value"),
        ("{", 1, "unexpected end of input, expected a string key"),
        (#"{"a" 1}"#, 5, "unexpected '1', expected ':' after key \"a\""),
        (#"{"a":1,}"#, 7, "unexpected '}', expected a string key"),
        ("[1 2]", 3, "unexpected '2', expected ',' or ']'"),
        ("01", 0, "invalid number: leading zero"),
        ("1.", 2, "invalid number: expected a digit after '.'"),
        ("tru", 0, "invalid literal, expected true"),
        (#""abc"#, 0, "unterminated string"),
        ("\"a\u{1}\"", 2, "unescaped control character 0x1 in string"),
        (#""\x""#, 1, "invalid escape '\\x' in string"),
        ("{} x", 3, "unexpected 'x' after the end of the document"),
        ("{USD:1}", 1, "unexpected 'U', expected a string key")
    ])
    func reportsErrorsWithOffsets(_ text: String, _ offset: Int, _ reason: String) {
        #expect(throws: JSONParseError.self) { try JSONParser.parse(text) }
        do {
            _ = try JSONParser.parse(text)
        } catch {
            #expect(error.offset == offset)
            #expect(error.reason == reason)
        }
    }

    @Test func reportsLineAndColumn() {
        do {
            _ = try JSONParser.parse("{\n  \"a\": 1,\n  \"b\": ?\n}")
            Issue.record("expected an error")
        } catch {
            #expect(error.line == 3)
            #expect(error.column == 8)
            #expect(error.offset == 19)
            #expect(error.description == "invalid JSON at byte 19 (line 3, column 8): unexpected '?', expected a value")
        }
    }

    @Test func limitsNesting() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(throws: JSONParseError.self) { try JSONParser.parse(deep) }
        let ok = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
        #expect((try? JSONParser.parse(ok)) != nil)
    }
}

@Suite struct JSONWriterTests {
    /// Strings are checked a word at a time, the last word overlapping the one before: a byte that
    /// needs an escape is escaped wherever it is, in strings of every length around a word.
    @Test func escapesAreFoundAtEveryPositionAndLength() {
        func reference(_ bytes: [UInt8]) -> String {
            var out = "\""
            for b in bytes {
                switch b {
                case 0x22: out += "\\\""
                case 0x5C: out += "\\\\"
                case 0x0A: out += "\\n"
                case 0x0D: out += "\\r"
                case 0x09: out += "\\t"
                case 0x08: out += "\\b"
                case 0x0C: out += "\\f"
                case 0..<0x20: out += "\\u00" + (b < 16 ? "0" : "1") + String(b & 15, radix: 16)
                default: out += String(UnicodeScalar(b))
                }
            }
            return out + "\""
        }
        for special: UInt8 in [0x22, 0x5C, 0x0A, 0x01, 0x1F] {
            for length in 0..<26 {
                for position in 0...length {
                    var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    if position < length { bytes[position] = special }
                    var writer = JSONWriter()
                    bytes.withUnsafeBufferPointer { writer.write(utf8: $0) }
                    #expect(
                        String(decoding: writer.bytes, as: UTF8.self) == reference(bytes),
                        "byte \(special) at \(position) of \(length)")
                }
            }
        }
    }

    /// The escape path copies the runs between escaped bytes and finds each next one a word at a
    /// time: strings with several escapes in one word, next to bytes above 0x7F (whose flags the
    /// word tricks must not raise) and across word boundaries come out as the byte rules say.
    @Test func stringsWithManyEscapesComeOutAsTheByteRulesSay() {
        func reference(_ bytes: [UInt8]) -> [UInt8] {
            var out: [UInt8] = [0x22]
            for b in bytes {
                switch b {
                case 0x22, 0x5C: out += [0x5C, b]
                case 0x0A: out += Array(#"\n"#.utf8)
                case 0x0D: out += Array(#"\r"#.utf8)
                case 0x09: out += Array(#"\t"#.utf8)
                case 0x08: out += Array(#"\b"#.utf8)
                case 0x0C: out += Array(#"\f"#.utf8)
                case 0..<0x20: out += Array(#"\u00"#.utf8) + Array(String(format2: b).utf8)
                default: out.append(b)
                }
            }
            return out + [0x22]
        }
        let alphabet: [UInt8] = [
            0x22, 0x5C, 0x0A, 0x0D, 0x09, 0x08, 0x0C, 0x00, 0x01, 0x1F, 0x20, 0x21, 0x7F, 0x80, 0xA0, 0xFF, 0x61
        ]
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        for length in 0..<70 {
            for _ in 0..<12 {
                let bytes = (0..<length).map { _ -> UInt8 in
                    seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                    return alphabet[Int(seed >> 33) % alphabet.count]
                }
                var writer = JSONWriter(capacity: 1)
                writer.raw("x")
                bytes.withUnsafeBufferPointer { writer.write(utf8: $0) }
                #expect(writer.bytes == [UInt8(ascii: "x")] + reference(bytes), "\(bytes)")
                #expect(writer.count == writer.bytes.count)
            }
        }
    }

    /// The writer keeps its bytes in memory of its own, grown as needed: what was written stays.
    @Test func aWriterGrowsPastTheCapacityItWasGiven() {
        var long = JSONWriter(capacity: 1)
        for n in 0..<100 { long.write(Int64(n)) }
        long.append(contentsOf: Array(repeating: UInt8(ascii: "x"), count: 9))
        long.append(contentsOf: Array("short".utf8))
        #expect(
            String(decoding: long.bytes, as: UTF8.self)
                == (0..<100).map(String.init).joined() + String(repeating: "x", count: 9) + "short")
        #expect(long.count == long.bytes.count)
    }

    func text(_ v: JSONValue) -> String { String(decoding: JSONWriter.serialize(v), as: UTF8.self) }

    @Test func writesScalars() {
        #expect(text(.null) == "null")
        #expect(text(.bool(true)) == "true")
        #expect(text(.int(0)) == "0")
        #expect(text(.int(-1_234_567_890_123)) == "-1234567890123")
        #expect(text(.int(Int64.min)) == "-9223372036854775808")
        #expect(text(.int(Int64.max)) == "9223372036854775807")
        #expect(text(.double(1.5)) == "1.5")
        #expect(text(.double(0.1)) == "0.1")
        #expect(text(.double(2)) == "2.0")
        #expect(text(.double(1e-7)) == "1e-07")
        #expect(text(.double(.nan)) == "null")
        #expect(text(.double(.infinity)) == "null")
    }

    /// Decimals are written without `description` where its answer is known: for short decimals
    /// (what revenue is) and for arbitrary Doubles, negative ones and the edges of the fast path,
    /// the text is `description`'s, byte for byte.
    @Test func doublesAreWrittenAsDescriptionWritesThem() {
        var seed: UInt64 = 0x5851_F42D_4C95_7F2D
        func next() -> UInt64 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return seed
        }
        var values: [Double] = [
            0.001, 0.000999, 1e15, 999_999_999_999_999.9, 1e15 - 0.125, 4.99, 0.12, 0.1 + 0.2, 1.0 / 3.0, 100, 2,
            -4.99, 0.0, -0.0, 12_345_678.9, 123_456_789.012_345_67, 0.123_456_789_1, 9_007_199_254_740_991
        ]
        for _ in 0..<3000 {
            let cents = Double(next() % 10_000_000) / 100
            let short = Double("\(next() % 100_000).\(next() % 1000)")!
            let any = Double(bitPattern: 0x3F00_0000_0000_0000 + next() % 0x0800_0000_0000_0000)
            values += [cents, short, any, -any]
        }
        var fast = JSONWriter()
        #expect(fast.writeShortDecimal(4.99) && fast.writeShortDecimal(-0.12) && fast.writeShortDecimal(100))
        #expect(!fast.writeShortDecimal(1e-5) && !fast.writeShortDecimal(1.0 / 3.0) && !fast.writeShortDecimal(1e16))
        #expect(String(decoding: fast.bytes, as: UTF8.self) == "4.99-0.12100.0")
        for value in values {
            var writer = JSONWriter()
            writer.write(value)
            #expect(String(decoding: writer.bytes, as: UTF8.self) == value.description, "\(value)")
        }
    }

    @Test func escapesStrings() {
        #expect(text(.string("a\"b\\c\n\r\t\u{8}\u{C}\u{1}\u{1F}é€")) == #""a\"b\\c\n\r\t\b\f\u0001\u001fé€""#)
        #expect(text(.string("/")) == #""/""#)
    }

    @Test func writesMembersPlainOrEscaped() {
        for (name, value, expected) in [
            ("a", "1", #""a":"1""#),
            ("long_parameter_name", "6D5C2A9E-0F4B", #""long_parameter_name":"6D5C2A9E-0F4B""#),
            ("q\"", "x", #""q\"":"x""#), ("n", "line\nbreak", #""n":"line\nbreak""#), ("", "", #""":"""#)
        ] {
            var w = JSONWriter()
            var n = name
            var v = value
            n.withUTF8 { nb in v.withUTF8 { vb in w.writeMember(utf8: nb, vb) } }
            #expect(String(decoding: w.bytes, as: UTF8.self) == expected)
        }
    }

    /// Strings are scanned eight bytes at a time: an escape at every position of a long string,
    /// and every byte value, must come out as the byte-by-byte rules say.
    @Test func escapesAtEveryPositionOfLongStrings() throws {
        for special in ["\"", "\\", "\n", "\u{1F}", "\u{0}", "\u{7F}", "é"] {
            for position in 0..<20 {
                let plain = String(repeating: "a", count: 20)
                var chars = Array(plain)
                chars.insert(Character(special), at: position)
                let string = String(chars)
                let written = text(.string(string))
                #expect(try JSONParser.parse(written) == .string(string), "\(written)")
                #expect(
                    written.utf8.count == string.utf8.count + 2
                        + (special == "\u{1F}" || special == "\u{0}"
                            ? 5 : special == "\u{7F}" || special == "é" ? 0 : 1))
            }
        }
        let allBytes = String(decoding: (0..<128).map { UInt8($0) } + Array("xyz€".utf8), as: UTF8.self)
        #expect(try JSONParser.parse(text(.string(allBytes))) == .string(allBytes))
    }

    @Test func writesContainersInOrder() {
        let v: JSONValue = ["z": 1, "a": [true, nil, "x"], "m": [:]]
        #expect(text(v) == #"{"z":1,"a":[true,null,"x"],"m":{}}"#)
    }

    @Test func roundTrips() throws {
        let samples = [
            #"{"status":"ok","conversion_value":5,"skan_updated_coarse_value":2,"skan_updated_lock_window_value":false}"#,
            #"{"USD":1.2000000476837158,"KRW":15530,"EUR":0.5}"#,
            #"[1,-2,3.25,"\u0000\n",{"a":{"b":[null,true,false]}}]"#,
            #"{"big":9223372036854775807,"small":-9223372036854775808,"tiny":5e-324}"#
        ]
        for s in samples {
            let v = try JSONParser.parse(s)
            #expect(text(v) == s)
            #expect(try JSONParser.parse(text(v)) == v)
        }
    }

    @Test func invalidUTF8BodyBecomesReplacementCharacter() {
        var w = JSONWriter()
        w.writeString(bytes: [0x61, 0xFF, 0x62])
        #expect(String(decoding: w.bytes, as: UTF8.self) == "\"a\u{FFFD}b\"")
    }
}

@Suite struct RFC3339Tests {
    @Test func formatsMillisecondsInUTC() {
        #expect(RFC3339.format(milliseconds: T0 * 1000 + 123) == "2025-11-21T04:40:00.123Z")
        #expect(RFC3339.format(milliseconds: 0) == "1970-01-01T00:00:00.000Z")
        #expect(RFC3339.format(milliseconds: -1000) == "1969-12-31T23:59:59.000Z")
        #expect(RFC3339.format(milliseconds: 951_782_400_000) == "2000-02-29T00:00:00.000Z")
        #expect(RFC3339.format(milliseconds: 253_402_300_799_999) == "9999-12-31T23:59:59.999Z")
    }
}

extension String {
    /// Two lower-case hex digits, as JSON's `\u00XX` escape writes them.
    fileprivate init(format2 byte: UInt8) {
        let digits = Array("0123456789abcdef")
        self = String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
    }
}
