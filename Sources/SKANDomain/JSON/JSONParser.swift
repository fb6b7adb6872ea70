/// Why a JSON text did not parse, and where: the byte offset plus line and column so that a person
/// editing a model file can jump straight to the mistake.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    public var offset: Int
    public var line: Int
    public var column: Int
    public var reason: String

    public var description: String {
        "invalid JSON at byte \(offset) (line \(line), column \(column)): \(reason)"
    }
}

/// A strict RFC 8259 parser over bytes. Hand-written because it runs on every request (revenue
/// parameters are JSON) and Foundation's parser is both slow and loses integer exactness and key order.
public struct JSONParser {
    /// Deep enough for any real document, shallow enough that hostile input cannot exhaust the stack.
    public static let maximumDepth = 256

    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8))
    }

    public static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        let result: Result<JSONValue, JSONParseError> = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONParseError) in try parse(buffer) }
        }
        return try result.get()
    }

    static func parse(_ buffer: UnsafeBufferPointer<UInt8>) throws(JSONParseError) -> JSONValue {
        var parser = Cursor(bytes: buffer)
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        if parser.index != buffer.count {
            throw parser.error("unexpected \(parser.describeCurrent()) after the end of the document")
        }
        return value
    }

    private struct Cursor {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        func error(_ reason: String, at offset: Int? = nil) -> JSONParseError {
            let at = min(offset ?? index, bytes.count)
            var line = 1
            var column = 1
            var i = 0
            while i < at {
                if bytes[i] == UInt8(ascii: "\n") {
                    line += 1
                    column = 1
                } else if bytes[i] & 0xC0 != 0x80 {
                    column += 1
                }
                i += 1
            }
            return JSONParseError(offset: at, line: line, column: column, reason: reason)
        }

        func describeCurrent() -> String {
            guard index < bytes.count else { return "end of input" }
            let b = bytes[index]
            if b >= 0x21 && b < 0x7F { return "'\(Character(Unicode.Scalar(b)))'" }
            return "byte 0x\(String(b, radix: 16))"
        }

        mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x0A, 0x0D, 0x09: index += 1
                default: return
                }
            }
        }

        mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
            guard index < bytes.count else { throw error("unexpected end of input, expected a value") }
            switch bytes[index] {
            case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
            case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
            case UInt8(ascii: "\""): return .string(try parseString())
            case UInt8(ascii: "t"):
                try expectLiteral("true")
                return .bool(true)
            case UInt8(ascii: "f"):
                try expectLiteral("false")
                return .bool(false)
            case UInt8(ascii: "n"):
                try expectLiteral("null")
                return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
            default: throw error("unexpected \(describeCurrent()), expected a value")
            }
        }

        mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
            let start = index
            let count = literal.utf8CodeUnitCount
            let pointer = literal.utf8Start
            guard bytes.count - index >= count else { throw error("invalid literal, expected \(literal)", at: start) }
            for k in 0..<count where bytes[index + k] != pointer[k] {
                throw error("invalid literal, expected \(literal)", at: start)
            }
            index += count
        }

        mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
            guard depth <= JSONParser.maximumDepth else {
                throw error("nesting deeper than \(JSONParser.maximumDepth) levels")
            }
            index += 1
            var members: [JSONMember] = []
            skipWhitespace()
            if index < bytes.count && bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                    throw error("unexpected \(describeCurrent()), expected a string key")
                }
                let key = try parseString()
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                    throw error("unexpected \(describeCurrent()), expected ':' after key \"\(key)\"")
                }
                index += 1
                skipWhitespace()
                let value = try parseValue(depth: depth)
                members.append(JSONMember(key, value))
                skipWhitespace()
                guard index < bytes.count else { throw error("unexpected end of input, expected ',' or '}'") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                if bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    return .object(members)
                }
                throw error("unexpected \(describeCurrent()), expected ',' or '}'")
            }
        }

        mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
            guard depth <= JSONParser.maximumDepth else {
                throw error("nesting deeper than \(JSONParser.maximumDepth) levels")
            }
            index += 1
            var items: [JSONValue] = []
            skipWhitespace()
            if index < bytes.count && bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(items)
            }
            while true {
                skipWhitespace()
                items.append(try parseValue(depth: depth))
                skipWhitespace()
                guard index < bytes.count else { throw error("unexpected end of input, expected ',' or ']'") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                if bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    return .array(items)
                }
                throw error("unexpected \(describeCurrent()), expected ',' or ']'")
            }
        }

        mutating func parseString() throws(JSONParseError) -> String {
            let open = index
            index += 1
            let start = index
            // Fast path: no escapes, no control characters.
            while index < bytes.count {
                let b = bytes[index]
                if b == UInt8(ascii: "\"") {
                    let s = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                    index += 1
                    return s
                }
                if b == UInt8(ascii: "\\") || b < 0x20 { break }
                index += 1
            }
            var out: [UInt8] = Array(bytes[start..<index])
            while index < bytes.count {
                let b = bytes[index]
                switch b {
                case UInt8(ascii: "\""):
                    index += 1
                    return String(decoding: out, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    index += 1
                    guard index < bytes.count else { break }
                    let e = bytes[index]
                    index += 1
                    switch e {
                    case UInt8(ascii: "\""): out.append(0x22)
                    case UInt8(ascii: "\\"): out.append(0x5C)
                    case UInt8(ascii: "/"): out.append(0x2F)
                    case UInt8(ascii: "b"): out.append(0x08)
                    case UInt8(ascii: "f"): out.append(0x0C)
                    case UInt8(ascii: "n"): out.append(0x0A)
                    case UInt8(ascii: "r"): out.append(0x0D)
                    case UInt8(ascii: "t"): out.append(0x09)
                    case UInt8(ascii: "u"):
                        var scalar = try parseHex4()
                        if scalar >= 0xD800 && scalar < 0xDC00 {
                            // A high surrogate must be followed by an escaped low surrogate.
                            if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                                bytes[index + 1] == UInt8(ascii: "u")
                            {
                                index += 2
                                let low = try parseHex4()
                                if low >= 0xDC00 && low < 0xE000 {
                                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                                } else {
                                    appendScalar(0xFFFD, to: &out)
                                    scalar = low
                                }
                            } else {
                                scalar = 0xFFFD
                            }
                        } else if scalar >= 0xDC00 && scalar < 0xE000 {
                            scalar = 0xFFFD
                        }
                        appendScalar(scalar, to: &out)
                    default:
                        throw error("invalid escape '\\\(Character(Unicode.Scalar(e)))' in string", at: index - 2)
                    }
                default:
                    if b < 0x20 { throw error("unescaped control character 0x\(String(b, radix: 16)) in string") }
                    out.append(b)
                    index += 1
                }
            }
            throw error("unterminated string", at: open)
        }

        mutating func parseHex4() throws(JSONParseError) -> UInt32 {
            guard bytes.count - index >= 4 else { throw error("truncated \\u escape") }
            var v: UInt32 = 0
            for _ in 0..<4 {
                let c = bytes[index]
                let d: UInt32
                switch c {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(c - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(c - UInt8(ascii: "A") + 10)
                default: throw error("invalid hex digit in \\u escape")
                }
                v = v << 4 | d
                index += 1
            }
            return v
        }

        func appendScalar(_ value: UInt32, to out: inout [UInt8]) {
            let scalar = Unicode.Scalar(value) ?? "\u{FFFD}"
            for unit in UTF8.encode(scalar)! { out.append(unit) }
        }

        /// A number, read by the one grammar revenue's compact reader uses too (`JSONNumber`).
        mutating func parseNumber() throws(JSONParseError) -> JSONValue {
            do {
                return try JSONNumber.read(bytes, at: &index)
            } catch {
                switch error {
                case .expectedDigit(let offset): throw self.error("invalid number: expected a digit", at: offset)
                case .leadingZero(let offset): throw self.error("invalid number: leading zero", at: offset)
                case .expectedFractionDigit(let offset):
                    throw self.error("invalid number: expected a digit after '.'", at: offset)
                case .expectedExponentDigit(let offset):
                    throw self.error("invalid number: expected a digit in the exponent", at: offset)
                case .outOfRange(let start, let end):
                    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
                    throw self.error("number \(text) is out of range", at: start)
                }
            }
        }
    }
}
