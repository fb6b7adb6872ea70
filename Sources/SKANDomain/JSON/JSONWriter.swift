import ByteWords

/// Appends JSON text to a byte buffer. Used for every response body and journal line, so it writes
/// straight into memory of its own: no intermediate String, no Foundation, and no `[UInt8]` append,
/// whose generic sequence path cost about 90 instructions a call (170 calls a journal line).
/// Not copyable: a writer is written through `inout` and read once (`bytes`), so its memory needs
/// neither a reference count nor a uniqueness check per append.
public struct JSONWriter: ~Copyable, ByteAppending {
    private var base: UnsafeMutablePointer<UInt8>
    /// How many bytes have been written.
    public private(set) var count = 0
    private var capacity: Int

    public init(capacity: Int = 256) {
        self.capacity = Swift.max(16, capacity)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// The text written so far.
    public var bytes: [UInt8] {
        Array(UnsafeBufferPointer(start: base, count: count))
    }

    /// Room for `more` bytes past the end, where the caller writes them.
    @inline(__always) private mutating func reserve(_ more: Int) -> UnsafeMutablePointer<UInt8> {
        if count + more > capacity { grow(count + more) }
        return base + count
    }

    @inline(never) private mutating func grow(_ needed: Int) {
        let larger = Swift.max(needed, capacity * 2)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
        moved.initialize(from: base, count: count)
        base.deallocate()
        base = moved
        capacity = larger
    }

    @inline(__always) public mutating func append(_ byte: UInt8) {
        reserve(1).pointee = byte
        count += 1
    }

    @inline(__always) mutating func append(contentsOf text: UnsafeBufferPointer<UInt8>) {
        guard let source = text.baseAddress else { return }
        let n = text.count
        JSONWriter.copy(source, to: reserve(n), count: n)
        count += n
    }

    /// Keys, punctuation, short values: for a few bytes a call to memcpy costs more than the bytes.
    @inline(__always)
    private static func copy(_ source: UnsafePointer<UInt8>, to target: UnsafeMutablePointer<UInt8>, count n: Int) {
        if n <= 8 {
            for i in 0..<n { target[i] = source[i] }
        } else {
            target.initialize(from: source, count: n)
        }
    }

    public mutating func append(contentsOf text: [UInt8]) {
        text.withUnsafeBufferPointer { append(contentsOf: $0) }
    }

    public mutating func append(contentsOf text: ArraySlice<UInt8>) {
        text.withUnsafeBufferPointer { append(contentsOf: $0) }
    }

    public mutating func append(contentsOf text: String.UTF8View) {
        if text.withContiguousStorageIfAvailable({ append(contentsOf: $0) }) == nil {
            for byte in text { append(byte) }
        }
    }

    /// What `write` produces, parsed back: one writer serves both the journal line and the typed
    /// value tests look at, so the two cannot drift apart.
    static func parsedBack(_ write: (inout JSONWriter) -> Void) -> JSONValue {
        var writer = JSONWriter()
        write(&writer)
        return (try? JSONParser.parse(writer.bytes)) ?? .null
    }

    /// Compact JSON text for `value`.
    public static func serialize(_ value: JSONValue) -> [UInt8] {
        var writer = JSONWriter()
        writer.write(value)
        return writer.bytes
    }

    public mutating func write(_ value: JSONValue) {
        switch value {
        case .null: raw("null")
        case .bool(let b): raw(b ? "true" : "false")
        case .int(let i): write(i)
        case .double(let d): write(d)
        case .string(let s): write(s)
        case .array(let items):
            append(UInt8(ascii: "["))
            for (n, item) in items.enumerated() {
                if n > 0 { append(UInt8(ascii: ",")) }
                write(item)
            }
            append(UInt8(ascii: "]"))
        case .object(let members):
            append(UInt8(ascii: "{"))
            for (n, member) in members.enumerated() {
                if n > 0 { append(UInt8(ascii: ",")) }
                write(member.key)
                append(UInt8(ascii: ":"))
                write(member.value)
            }
            append(UInt8(ascii: "}"))
        }
    }

    /// Appends literal ASCII text as is (punctuation, keys known to need no escaping).
    public mutating func raw(_ text: StaticString) {
        // Punctuation is most of the calls; one byte goes in without the sequence machinery.
        if text.utf8CodeUnitCount == 1 {
            append(text.utf8Start.pointee)
        } else {
            append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        }
    }

    /// Appends bytes that are already JSON text (a pre-serialised journal entry, for instance).
    public mutating func raw(bytes more: [UInt8]) {
        append(contentsOf: more)
    }

    /// Writes `"key":` for an object member.
    public mutating func key(_ name: String) {
        write(name)
        append(UInt8(ascii: ":"))
    }

    public mutating func write(_ value: Int64) {
        // At most 20 bytes: room for all of them, the digits counted first and written from the end.
        let target = reserve(20)
        var magnitude = value.magnitude
        var at = 0
        if value < 0 {
            target[0] = UInt8(ascii: "-")
            at = 1
        }
        var digits = 1
        var rest = magnitude / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        var place = at + digits
        repeat {
            place -= 1
            target[place] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
        count += at + digits
    }

    public mutating func write(_ value: Int) { write(Int64(value)) }

    /// Shortest text that reads back as the same Double (Swift's `description`); JSON has no NaN or
    /// infinity, so those become null.
    public mutating func write(_ value: Double) {
        guard value.isFinite else {
            raw("null")
            return
        }
        if !writeShortDecimal(value) { append(contentsOf: value.description.utf8) }
    }

    /// Revenue amounts (`4.99`) as `description` writes them, without its shortest-digits search:
    /// the fewest fraction digits k whose decimal reads back as `value` are its shortest digits, and
    /// where the gap between neighbouring Doubles is below 10^-k no other decimal of k digits reads
    /// back as it, so the text is the one `description` chooses. False (nothing written) for
    /// magnitudes outside 0.001..<1e15, where `description` may switch to an exponent, or when more
    /// than 9 fraction digits are needed.
    mutating func writeShortDecimal(_ value: Double) -> Bool {
        let magnitude = value.magnitude
        guard magnitude >= 0.001 && magnitude < 1e15 else { return false }
        func readsBack(_ digits: Double, _ scale: Int64) -> Bool { digits / Double(scale) == magnitude }
        var scale: Int64 = 1
        for k in 0...9 {
            // Past here another decimal of k digits could read back as the value too.
            guard magnitude.ulp * Double(scale) < 1 else { return false }
            // The product's own rounding may put it one off the decimal's digits: both neighbours are tried.
            let near = (magnitude * Double(scale)).rounded()
            guard near < 9_007_199_254_740_991 else { return false }
            let scaled: Double? =
                readsBack(near, scale)
                ? near : readsBack(near - 1, scale) ? near - 1 : readsBack(near + 1, scale) ? near + 1 : nil
            if let scaled {
                writeFixed(negative: value < 0, digits: Int64(scaled), scale: scale, fractionDigits: k)
                return true
            }
            scale *= 10
        }
        return false
    }

    /// `digits / scale` with `fractionDigits` digits after the point (at least one, as `description`).
    private mutating func writeFixed(negative: Bool, digits: Int64, scale: Int64, fractionDigits k: Int) {
        if negative { append(UInt8(ascii: "-")) }
        write(digits / scale)
        append(UInt8(ascii: "."))
        guard k > 0 else {
            append(UInt8(ascii: "0"))
            return
        }
        var fraction = digits % scale
        let target = reserve(k)
        for place in stride(from: k - 1, through: 0, by: -1) {
            target[place] = UInt8(ascii: "0") + UInt8(fraction % 10)
            fraction /= 10
        }
        count += k
    }

    public mutating func write(_ value: Bool) {
        if value { raw("true") } else { raw("false") }
    }

    /// A JSON string with the escapes RFC 8259 requires (quote, backslash, control characters);
    /// everything else, including non-ASCII, goes out as UTF-8.
    public mutating func write(_ string: String) {
        // Read in place: `withUTF8` needs a mutable copy, a retain and a release a string.
        if string.utf8.withContiguousStorageIfAvailable({ write(utf8: $0) }) == nil {
            var string = string
            string.withUTF8 { write(utf8: $0) }
        }
    }

    /// `"name":"value"` for two strings already in UTF-8.
    mutating func writeMember(utf8 name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>) {
        write(utf8: name)
        append(UInt8(ascii: ":"))
        write(utf8: value)
    }

    /// `write(_:)` for text already in UTF-8 (it must be valid UTF-8).
    mutating func write(utf8: UnsafeBufferPointer<UInt8>) {
        guard let source = utf8.baseAddress else {
            raw("\"\"")
            return
        }
        let n = utf8.count
        let first = JSONWriter.nextEscape(source, from: 0, count: n)
        // Nearly every string of a journal line needs no escape: quotes and bytes in one reservation.
        guard first < n else {
            let target = reserve(n + 2)
            target[0] = UInt8(ascii: "\"")
            JSONWriter.copy(source, to: target + 1, count: n)
            target[n + 1] = UInt8(ascii: "\"")
            count += n + 2
            return
        }
        writeEscaped(source, count: n, firstEscape: first)
    }

    /// The escape path (percent-decoded revenue JSON in the journal's parameters, mostly): one
    /// reservation for the worst case, every byte as `\u00XX`, then the runs between escaped bytes
    /// copied whole, each next escape found a word at a time.
    @inline(never) private mutating func writeEscaped(_ source: UnsafePointer<UInt8>, count n: Int, firstEscape: Int) {
        let target = reserve(n * 6 + 2)
        target[0] = UInt8(ascii: "\"")
        var o = 1
        var i = 0
        var next = firstEscape
        while true {
            let run = next - i
            JSONWriter.copy(source + i, to: target + o, count: run)
            o += run
            guard next < n else { break }
            let b = source[next]
            target[o] = UInt8(ascii: "\\")
            switch b {
            case 0x22, 0x5C: target[o + 1] = b
            case 0x0A: target[o + 1] = UInt8(ascii: "n")
            case 0x0D: target[o + 1] = UInt8(ascii: "r")
            case 0x09: target[o + 1] = UInt8(ascii: "t")
            case 0x08: target[o + 1] = UInt8(ascii: "b")
            case 0x0C: target[o + 1] = UInt8(ascii: "f")
            default:
                target[o + 1] = UInt8(ascii: "u")
                target[o + 2] = UInt8(ascii: "0")
                target[o + 3] = UInt8(ascii: "0")
                target[o + 4] = JSONWriter.hexDigit(b >> 4)
                target[o + 5] = JSONWriter.hexDigit(b & 0xF)
                o += 4
            }
            o += 2
            i = next + 1
            next = JSONWriter.nextEscape(source, from: i, count: n)
        }
        target[o] = UInt8(ascii: "\"")
        count += o + 1
    }

    /// Where the next byte at or after `from` that needs an escape is (`count` if none): a word at
    /// a time, the place read from the lowest flagged byte (flags above a true one may be false,
    /// the lowest never is), each word read little-endian so that its low byte is the first.
    @inline(__always)
    static func nextEscape(_ source: UnsafePointer<UInt8>, from: Int, count n: Int) -> Int {
        var i = from
        if n - from >= 8 {
            let raw = UnsafeRawPointer(source)
            while i + 8 <= n {
                let mask = escapeMask(ByteWord.load(raw, at: i))
                if mask != 0 { return i + ByteWord.firstFlagged(mask) }
                i += 8
            }
            guard i < n else { return n }
            // The last eight bytes, overlapping some just checked: those raise no flag (a false
            // flag needs a true one below it), so the lowest flag is the next escape.
            let mask = escapeMask(ByteWord.load(raw, at: n - 8))
            return mask == 0 ? n : n - 8 + ByteWord.firstFlagged(mask)
        }
        while i < n && !(source[i] < 0x20 || source[i] == 0x22 || source[i] == 0x5C) { i += 1 }
        return i
    }

    /// The flags (`ByteWord`) of the bytes of `word` that are a control character, `"` or `\\`.
    @inline(__always) static func escapeMask(_ word: UInt64) -> UInt64 {
        ByteWord.belowFlags(word, 0x20) | ByteWord.equalFlags(word, ByteWord.repeating(0x22))
            | ByteWord.equalFlags(word, ByteWord.repeating(0x5C))
    }

    @inline(__always) static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }

    /// A JSON string holding `text`, given as bytes that may not be valid UTF-8 (a response body
    /// damaged on purpose by fault injection): invalid sequences become U+FFFD.
    public mutating func writeString(bytes text: [UInt8]) {
        text.withUnsafeBufferPointer { bytes in
            // Answers are ASCII JSON: no String to make unless there is something to repair.
            if bytes.isASCII { write(utf8: bytes) } else { write(String(decoding: bytes, as: UTF8.self)) }
        }
    }
}

/// Writes an object member by member, minding the braces and commas, for objects whose members
/// are optional (the journal's `skan`).
struct JSONObjectWriter {
    private var started = false

    /// Starts the member `key` (a literal that needs no escaping); write its value next.
    mutating func next(_ w: inout JSONWriter, _ key: StaticString) {
        w.append(started ? UInt8(ascii: ",") : UInt8(ascii: "{"))
        started = true
        w.append(UInt8(ascii: "\""))
        w.raw(key)
        w.raw("\":")
    }

    /// Starts the member `name`, escaped as needed. (A label of its own: with two unlabelled
    /// overloads every literal key took the String one, whose escape check costs more than the key.)
    mutating func next(_ w: inout JSONWriter, name key: String) {
        w.append(started ? UInt8(ascii: ",") : UInt8(ascii: "{"))
        started = true
        w.key(key)
    }

    mutating func end(_ w: inout JSONWriter) {
        if !started { w.append(UInt8(ascii: "{")) }
        w.append(UInt8(ascii: "}"))
    }
}
