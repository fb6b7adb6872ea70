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

    @inline(__always) public mutating func append(contentsOf text: UnsafeBufferPointer<UInt8>) {
        guard let source = text.baseAddress else { return }
        let n = text.count
        let target = reserve(n)
        if n <= 8 {
            // Keys, punctuation, short values: a call to memcpy costs more than the bytes.
            for i in 0..<n { target[i] = source[i] }
        } else {
            target.initialize(from: source, count: n)
        }
        count += n
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
        if value == 0 {
            append(UInt8(ascii: "0"))
            return
        }
        var magnitude = value.magnitude
        if value < 0 { append(UInt8(ascii: "-")) }
        var digits:
            (
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
            ) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            while magnitude > 0 {
                buffer[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            }
            while count > 0 {
                count -= 1
                append(buffer[count])
            }
        }
    }

    public mutating func write(_ value: Int) { write(Int64(value)) }

    /// Shortest text that reads back as the same Double (Swift's `description`); JSON has no NaN or
    /// infinity, so those become null.
    public mutating func write(_ value: Double) {
        guard value.isFinite else {
            raw("null")
            return
        }
        append(contentsOf: value.description.utf8)
    }

    public mutating func write(_ value: Bool) {
        if value { raw("true") } else { raw("false") }
    }

    /// A JSON string with the escapes RFC 8259 requires (quote, backslash, control characters);
    /// everything else, including non-ASCII, goes out as UTF-8.
    public mutating func write(_ string: String) {
        var string = string
        string.withUTF8 { write(utf8: $0) }
    }

    /// `"name":"value"` for two strings already in UTF-8.
    public mutating func writeMember(utf8 name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>) {
        write(utf8: name)
        append(UInt8(ascii: ":"))
        write(utf8: value)
    }

    /// Whether `utf8` can go into a JSON string as it is.
    @inline(__always)
    static func isPlain(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = utf8.baseAddress else { return true }
        let n = utf8.count
        if n < 8 {
            for i in 0..<n where base[i] < 0x20 || base[i] == 0x22 || base[i] == 0x5C { return false }
            return true
        }
        // Whole words, then the last eight bytes (overlapping the last word): no byte loop.
        let raw = UnsafeRawPointer(base)
        var i = 0
        while i + 8 <= n {
            if needsEscape(raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) { return false }
            i += 8
        }
        return i == n || !needsEscape(raw.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self))
    }

    /// How many leading bytes, in whole words of eight, need no escape (almost all of a journal line's strings).
    @inline(__always)
    static func plainWords(_ utf8: UnsafeBufferPointer<UInt8>) -> Int {
        var i = 0
        guard let base = utf8.baseAddress else { return 0 }
        let raw = UnsafeRawPointer(base)
        while i + 8 <= utf8.count && !needsEscape(raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) { i += 8 }
        return i
    }

    /// `write(_:)` for text already in UTF-8 (it must be valid UTF-8).
    public mutating func write(utf8: UnsafeBufferPointer<UInt8>) {
        // Nearly every string of a journal line needs no escape: quotes and bytes in one reservation.
        if JSONWriter.isPlain(utf8) {
            let n = utf8.count
            let target = reserve(n + 2)
            target[0] = UInt8(ascii: "\"")
            if let source = utf8.baseAddress {
                if n <= 8 {
                    for i in 0..<n { target[1 + i] = source[i] }
                } else {
                    (target + 1).initialize(from: source, count: n)
                }
            }
            target[n + 1] = UInt8(ascii: "\"")
            count += n + 2
            return
        }
        append(UInt8(ascii: "\""))
        var runStart = 0
        var i = JSONWriter.plainWords(utf8)
        while i < utf8.count {
            let b = utf8[i]
            if b >= 0x20 && b != 0x22 && b != 0x5C {
                i += 1
                continue
            }
            if runStart < i { append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<i])) }
            switch b {
            case 0x22: raw("\\\"")
            case 0x5C: raw("\\\\")
            case 0x0A: raw("\\n")
            case 0x0D: raw("\\r")
            case 0x09: raw("\\t")
            case 0x08: raw("\\b")
            case 0x0C: raw("\\f")
            default:
                raw("\\u00")
                append(JSONWriter.hexDigit(b >> 4))
                append(JSONWriter.hexDigit(b & 0xF))
            }
            i += 1
            runStart = i
        }
        if runStart < utf8.count {
            append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
        }
        append(UInt8(ascii: "\""))
    }

    /// Whether any of the eight bytes in `word` is a control character, `"` or `\\` (the bit tricks
    /// of "Bit Twiddling Hacks": a byte below n, a byte equal to zero).
    @inline(__always) static func needsEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func hasZero(_ x: UInt64) -> UInt64 { (x &- ones) & ~x & highs }
        let below0x20 = (word &- ones &* 0x20) & ~word & highs
        return below0x20 | hasZero(word ^ (ones &* 0x22)) | hasZero(word ^ (ones &* 0x5C)) != 0
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

    mutating func next(_ w: inout JSONWriter, _ key: String) {
        w.append(started ? UInt8(ascii: ",") : UInt8(ascii: "{"))
        started = true
        w.key(key)
    }

    mutating func end(_ w: inout JSONWriter) {
        if !started { w.append(UInt8(ascii: "{")) }
        w.append(UInt8(ascii: "}"))
    }
}
