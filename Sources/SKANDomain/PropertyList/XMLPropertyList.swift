/// Apple's XML property list (`<plist version="1.0">`, the DTD `PropertyList-1.0.dtd`) read from
/// bytes: the elements `dict` (`key` then a value, repeated), `array`, `string`, `integer`,
/// `real`, `true`, `false`, `date` and `data`, with XML's five entities, character references,
/// CDATA sections and comments. Not a general XML parser: anything else is an error naming its
/// line, so a damaged or hand-edited Info.plist says where it went wrong.
public struct XMLPropertyList {
    /// Deeper nesting than any Info.plist has; it bounds the reader's recursion.
    static let maxDepth = 256

    private let bytes: [UInt8]
    private var at = 0

    /// The value inside the `<plist>` element of the XML in `bytes`.
    public static func read(_ bytes: [UInt8]) throws(PropertyListError) -> PropertyListValue {
        var reader = XMLPropertyList(bytes: bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { reader.at = 3 }
        try reader.skipMisc()
        let root = try reader.startTag()
        guard root.name == "plist" else {
            throw reader.error("the root element is <\(root.name)>, where a property list has <plist>")
        }
        guard !root.empty else { throw reader.error("<plist/> is empty: it holds no value") }
        let value = try reader.value(depth: 0)
        try reader.skipMisc()
        try reader.endTag("plist")
        try reader.skipMisc()
        guard reader.at == bytes.count else {
            throw reader.error("more after </plist>: a property list holds one value")
        }
        return value
    }

    private func error(_ reason: String) -> PropertyListError {
        let line = bytes[..<min(at, bytes.count)].reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
        return PropertyListError("XML property list: line \(line): \(reason)")
    }

    private func peek(_ text: String) -> Bool { bytes[at...].starts(with: text.utf8) }

    private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

    private mutating func skipSpace() { while at < bytes.count, Self.isSpace(bytes[at]) { at += 1 } }

    /// Moves past `terminator`, or fails naming what was left open.
    private mutating func skip(past terminator: String, _ what: String) throws(PropertyListError) {
        let t = Array(terminator.utf8)
        while at < bytes.count {
            if bytes[at...].starts(with: t) {
                at += t.count
                return
            }
            at += 1
        }
        throw error("\(what) is not closed before the file ends: the file is cut short")
    }

    /// White space, comments, `<?...?>` and `<!DOCTYPE ...>` between elements.
    private mutating func skipMisc() throws(PropertyListError) {
        while true {
            skipSpace()
            if peek("<!--") {
                try skip(past: "-->", "a comment")
            } else if peek("<?") {
                try skip(past: "?>", "a processing instruction")
            } else if peek("<!DOCTYPE") {
                try skip(past: ">", "<!DOCTYPE")
            } else {
                return
            }
        }
    }

    private mutating func name() throws(PropertyListError) -> String {
        let start = at
        while at < bytes.count, bytes[at] >= 0x80 || Self.isNameByte(bytes[at]) { at += 1 }
        guard at > start else { throw error("a tag with no element name") }
        return String(decoding: bytes[start..<at], as: UTF8.self)
    }

    private static func isNameByte(_ b: UInt8) -> Bool {
        (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39) || b == 0x2D || b == 0x2E
            || b == 0x5F || b == 0x3A
    }

    /// `<name attributes...>` or `<name/>`.
    private mutating func startTag() throws(PropertyListError) -> (name: String, empty: Bool) {
        guard at < bytes.count else {
            throw error("the file ends where an element was expected: the file is cut short")
        }
        guard bytes[at] == 0x3C, !peek("</") else {
            if peek("</") { throw error("a closing tag where a value was expected") }
            throw error("text where an element was expected")
        }
        at += 1
        let tag = try name()
        while true {
            skipSpace()
            guard at < bytes.count else {
                throw error("<\(tag) is not closed before the file ends: the file is cut short")
            }
            switch bytes[at] {
            case 0x3E:
                at += 1
                return (tag, false)
            case 0x2F where peek("/>"):
                at += 2
                return (tag, true)
            case 0x22, 0x27:
                let quote = bytes[at]
                at += 1
                while at < bytes.count, bytes[at] != quote { at += 1 }
                guard at < bytes.count else {
                    throw error("an attribute of <\(tag)> is not closed: the file is cut short")
                }
                at += 1
            default:
                at += 1
            }
        }
    }

    /// `</name>`, or an error saying what closes instead.
    private mutating func endTag(_ expected: String) throws(PropertyListError) {
        guard peek("</") else {
            if at >= bytes.count { throw error("the file ends before </\(expected)>: the file is cut short") }
            throw error("<\(expected)> is not closed where </\(expected)> was expected")
        }
        at += 2
        let found = try name()
        skipSpace()
        guard found == expected, at < bytes.count, bytes[at] == 0x3E else {
            throw error("<\(expected)> is closed by </\(found)>")
        }
        at += 1
    }

    /// The text of `<tag>...</tag>`: entities and character references decoded, CDATA kept as
    /// written, comments dropped.
    private mutating func text(of tag: String) throws(PropertyListError) -> String {
        var out: [UInt8] = []
        while true {
            guard at < bytes.count else { throw error("the file ends inside <\(tag)>: the file is cut short") }
            let b = bytes[at]
            if b == 0x3C {
                if peek("<![CDATA[") {
                    at += 9
                    let start = at
                    try skip(past: "]]>", "a CDATA section")
                    out += bytes[start..<(at - 3)]
                } else if peek("<!--") {
                    try skip(past: "-->", "a comment")
                } else if peek("</") {
                    try endTag(tag)
                    break
                } else {
                    throw error("an element inside <\(tag)>, which holds text only")
                }
            } else if b == 0x26 {
                out += try entity()
            } else {
                out.append(b)
                at += 1
            }
        }
        // String(validating:) needs macOS 15; the package's floor is macOS 14.
        guard Base64.isUTF8(out) else { throw error("<\(tag)> holds bytes that are not UTF-8") }
        return String(decoding: out, as: UTF8.self)
    }

    private mutating func entity() throws(PropertyListError) -> [UInt8] {
        let start = at
        while at < bytes.count, bytes[at] != 0x3B, at - start < 12 { at += 1 }
        guard at < bytes.count, bytes[at] == 0x3B else { throw error("an & that starts no entity (write &amp;)") }
        let name = String(decoding: bytes[(start + 1)..<at], as: UTF8.self)
        at += 1
        switch name {
        case "lt": return [0x3C]
        case "gt": return [0x3E]
        case "amp": return [0x26]
        case "quot": return [0x22]
        case "apos": return [0x27]
        default:
            var digits = Substring(name)
            guard digits.first == "#" else { throw error("unknown entity &\(name);") }
            digits = digits.dropFirst()
            let radix = digits.first == "x" ? 16 : 10
            if radix == 16 { digits = digits.dropFirst() }
            guard let code = UInt32(digits, radix: radix), let scalar = Unicode.Scalar(code) else {
                throw error("&\(name); is not a character")
            }
            return Array(String(Character(scalar)).utf8)
        }
    }

    private mutating func value(depth: Int) throws(PropertyListError) -> PropertyListValue {
        guard depth < Self.maxDepth else { throw error("values nested deeper than \(Self.maxDepth) levels") }
        try skipMisc()
        let (tag, empty) = try startTag()
        switch tag {
        case "dict":
            var entries: [PropertyListEntry] = []
            if empty { return .dictionary(entries) }
            while true {
                try skipMisc()
                if peek("</") {
                    try endTag("dict")
                    return .dictionary(entries)
                }
                let (keyTag, keyEmpty) = try startTag()
                guard keyTag == "key" else { throw error("<\(keyTag)> in a <dict> where a <key> was expected") }
                let key = keyEmpty ? "" : try text(of: "key")
                try skipMisc()
                if peek("</dict") { throw error("<key>\(key)</key> has no value before </dict>") }
                entries.append(PropertyListEntry(key, try value(depth: depth + 1)))
            }
        case "array":
            var values: [PropertyListValue] = []
            if empty { return .array(values) }
            while true {
                try skipMisc()
                if peek("</") {
                    try endTag("array")
                    return .array(values)
                }
                values.append(try value(depth: depth + 1))
            }
        case "string":
            return .string(empty ? "" : try text(of: tag))
        case "true", "false":
            if !empty {
                try skipMisc()
                try endTag(tag)
            }
            return .bool(tag == "true")
        case "integer":
            let raw = empty ? "" : try text(of: tag)
            guard let value = Self.integer(raw) else { throw error("<integer>\(raw)</integer> is not a whole number") }
            return .integer(value)
        case "real":
            let raw = (empty ? "" : try text(of: tag)).filter { !$0.isWhitespace }
            guard let value = Double(raw) else { throw error("<real>\(raw)</real> is not a number") }
            return .real(value)
        case "date":
            let raw = empty ? "" : try text(of: tag)
            guard let value = Self.date(raw) else {
                throw error("<date>\(raw)</date> is not a date as YYYY-MM-DDTHH:MM:SSZ")
            }
            return .date(value)
        case "data":
            let raw = (empty ? "" : try text(of: tag)).filter { !$0.isWhitespace }
            guard let value = Base64.decode(raw) else { throw error("<data> holds text that is not base64") }
            return .data(value)
        case "key":
            throw error("a <key> outside a <dict>")
        default:
            throw error("<\(tag)>, which is no property list element")
        }
    }

    /// A decimal (or, as CoreFoundation reads, `0x` hexadecimal) whole number with an optional sign.
    private static func integer(_ raw: String) -> Int64? {
        var text = Substring(raw.filter { !$0.isWhitespace })
        var negative = false
        if let sign = text.first, sign == "-" || sign == "+" {
            negative = sign == "-"
            text = text.dropFirst()
        }
        let radix = text.hasPrefix("0x") || text.hasPrefix("0X") ? 16 : 10
        if radix == 16 { text = text.dropFirst(2) }
        guard !text.isEmpty, let magnitude = UInt64(text, radix: radix) else { return nil }
        if negative { return magnitude <= UInt64(Int64.max) + 1 ? Int64(truncatingIfNeeded: 0 &- magnitude) : nil }
        return magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil
    }

    /// `YYYY-MM-DDTHH:MM:SSZ` as seconds since 2001-01-01T00:00:00Z.
    static func date(_ raw: String) -> Double? {
        let b = Array(raw.utf8)
        guard b.count == 20, b[4] == 0x2D, b[7] == 0x2D, b[10] == 0x54, b[13] == 0x3A, b[16] == 0x3A, b[19] == 0x5A
        else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var n = 0
            for i in range {
                guard b[i] >= 0x30, b[i] <= 0x39 else { return nil }
                n = n * 10 + Int(b[i] - 0x30)
            }
            return n
        }
        guard let y = number(0..<4), let m = number(5..<7), let d = number(8..<10), let hh = number(11..<13),
            let mm = number(14..<16), let ss = number(17..<19), (1...12).contains(m), (1...31).contains(d), hh < 24,
            mm < 60, ss < 61
        else { return nil }
        // Days from 1970-01-01 (Howard Hinnant's days_from_civil), then from 2001-01-01.
        let yy = m <= 2 ? y - 1 : y
        let era = yy / 400
        let yoe = yy - era * 400
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146097 + doe - 719468
        return Double((days - 11323) * 86400 + hh * 3600 + mm * 60 + ss)
    }
}
