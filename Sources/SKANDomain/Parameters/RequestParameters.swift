import ByteWords

/// A request's parameters, decoded once: every name and value back to back in one byte buffer, in
/// arrival order (repeats kept, for the journal), and each known name (`SKANParameter`) sorted into
/// its slot as it arrives, so that the thirty lookups of a request are array reads. Repeated names
/// keep the last value (SPEC 1); an empty value counts as absent, because clients send `key=` for
/// values they do not have (NSURLQueryItem with nil).
///
/// Why not `[(String, String)]`: some forty strings per request (names and values over 15 bytes
/// live on the heap) and a string hash per lookup were a fifth of the server's time per request.
///
/// The bytes are valid UTF-8: a name or value that is not is stored repaired (U+FFFD), as a Swift
/// `String` of it would be, so journal lines and strings made from slices never differ.
public struct RequestParameters: Sendable {
    struct Field: Sendable {
        var nameStart: Int32
        var valueStart: Int32
        var valueEnd: Int32
        var name: Range<Int> { Int(nameStart)..<Int(valueStart) }
        var value: Range<Int> { Int(valueStart)..<Int(valueEnd) }
    }

    private(set) var bytes: [UInt8] = []
    private(set) var fields: [Field] = []
    /// Per `SKANParameter`, the index in `fields` of its last occurrence; -1 when absent.
    private var slots: [Int32] = Array(repeating: -1, count: SKANParameter.allCases.count)
    /// Names that are not `SKANParameter`s, hashed, only to count distinct names; made when needed.
    private var others = NameSet()
    /// How many different names were sent.
    public private(set) var distinctNames = 0
    /// Fields added by the server after the sent ones (`addIfAbsent`), and the distinct names
    /// sent before the first of them.
    private var added = 0
    private var distinctSent = 0

    public init(reservingBytes capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
        // A SKAN query has a field per 50 bytes or so; room for them all up front.
        fields.reserveCapacity(capacity / 16)
    }

    /// From decoded pairs (tests, tools and the simulator build requests this way).
    public init(_ pairs: [(name: String, value: String)]) {
        var capacity = 0
        for pair in pairs { capacity += pair.name.utf8.count + pair.value.utf8.count }
        self.init(reservingBytes: capacity)
        for pair in pairs { append(name: pair.name, value: pair.value) }
    }

    public mutating func append(name: String, value: String) {
        var name = name
        var value = value
        name.withUTF8 { n in value.withUTF8 { v in append(name: n, value: v) } }
    }

    /// Adds one decoded field from any bytes (`[UInt8]`, a slice, a string's UTF-8, the buffers
    /// `FormURLEncoding.forEachField` lends); the bytes are copied. Inlined, so contiguous bytes reach
    /// the pointer form below without a copy or a generic call.
    @inlinable
    public mutating func append<Name: Collection, Value: Collection>(name: Name, value: Value)
    where Name.Element == UInt8, Value.Element == UInt8 {
        let done = name.withContiguousStorageIfAvailable { n in
            value.withContiguousStorageIfAvailable { v in append(name: n, value: v) } != nil
        }
        if done != true { append(name: Array(name), value: Array(value)) }
    }

    /// Adds one decoded field; the bytes are copied.
    @usableFromInline
    mutating func append(name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) {
        let nameStart = bytes.count
        Self.appendValidUTF8(name, to: &bytes)
        let valueStart = bytes.count
        Self.appendValidUTF8(value, to: &bytes)
        let index = fields.count
        fields.append(
            Field(
                nameStart: Int32(truncatingIfNeeded: nameStart), valueStart: Int32(truncatingIfNeeded: valueStart),
                valueEnd: Int32(truncatingIfNeeded: bytes.count)))
        // Known names are ASCII, so a name that needed repair is never one of them.
        if let known = KnownNames.table.lookup(name) {
            if slots[known.rawValue] < 0 { distinctNames += 1 }
            slots[known.rawValue] = Int32(truncatingIfNeeded: index)
            return
        }
        var set = others
        others = NameSet()
        let isNew = bytes.withUnsafeBufferPointer { all in
            set.insert(
                UnsafeBufferPointer(rebasing: all[nameStart..<valueStart]), index: index, fields: fields, bytes: all)
        }
        others = set
        if isNew { distinctNames += 1 }
    }

    /// How many fields were sent, repeats included.
    public var count: Int { fields.count }

    /// The decoded bytes of names and values, for sizing a buffer that holds them.
    public var byteCount: Int { bytes.count }

    // MARK: added by the server

    /// Adds `name=value` unless the client sent `name` with a value (the client's wins): the fixed
    /// parameters of a `--route` alias, which the app's own back end adds before calling Singular.
    /// Added fields come after every sent one; the journal's `params` leaves them out. True when added.
    @discardableResult
    public mutating func addIfAbsent(name: String, value: String) -> Bool {
        guard self[name] == nil else { return false }
        if added == 0 { distinctSent = distinctNames }
        append(name: name, value: value)
        added += 1
        return true
    }

    /// The fields the client sent, without those the server added.
    var sentFields: ArraySlice<Field> { fields.dropLast(added) }

    /// How many different names the client sent.
    var distinctSentNames: Int { added == 0 ? distinctNames : distinctSent }

    // MARK: known names

    /// The last value sent for `parameter`, nil when absent or empty.
    public subscript(parameter: SKANParameter) -> String? {
        guard let range = valueRange(parameter) else { return nil }
        return string(range)
    }

    /// Whether `parameter` was sent with a non-empty value.
    public func contains(_ parameter: SKANParameter) -> Bool { valueRange(parameter) != nil }

    /// Runs `body` on the bytes of `parameter`'s last value; nil when absent or empty.
    func withValue<Result>(_ parameter: SKANParameter, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result)
        rethrows -> Result?
    {
        guard let range = valueRange(parameter) else { return nil }
        return try bytes.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[range])) }
    }

    private func valueRange(_ parameter: SKANParameter) -> Range<Int>? {
        let index = Int(slots[parameter.rawValue])
        guard index >= 0 else { return nil }
        let range = fields[index].value
        return range.isEmpty ? nil : range
    }

    // MARK: any name

    /// The last value sent for `name`, nil when absent or empty.
    public subscript(name: String) -> String? {
        guard let value = raw(name), !value.isEmpty else { return nil }
        return value
    }

    /// The last value sent for `name`, even when empty; nil only when absent.
    public func raw(_ name: String) -> String? {
        var name = name
        let index: Int? = name.withUTF8 { wanted in
            if let known = KnownNames.table.lookup(wanted) {
                let slot = Int(slots[known.rawValue])
                return slot >= 0 ? slot : nil
            }
            return bytes.withUnsafeBufferPointer { all in
                fields.lastIndex { RequestParameters.same(UnsafeBufferPointer(rebasing: all[$0.name]), wanted) }
            }
        }
        return index.map { string(fields[$0].value) }
    }

    /// The first of `names` that has a non-empty value, with its name.
    public func first(of names: String...) -> (name: String, value: String)? {
        for name in names { if let value = self[name] { return (name, value) } }
        return nil
    }

    /// Every field as sent, in order.
    public var pairs: [(name: String, value: String)] {
        fields.map { (string($0.name), string($0.value)) }
    }

    func string(_ range: Range<Int>) -> String {
        bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self) }
    }

    /// Copies `part`, repairing invalid UTF-8 the way `String(decoding:as:)` does.
    private static func appendValidUTF8(_ part: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
        if part.isASCII {
            bytes.append(contentsOf: part)
        } else {
            // Valid UTF-8 comes back unchanged, invalid sequences as U+FFFD.
            bytes.append(contentsOf: String(decoding: part, as: UTF8.self).utf8)
        }
    }

    /// A name the client chose, hashed with the standard library's per-process seed: names made to
    /// collide (as FNV's can be, offline) cannot turn counting them quadratic.
    @inline(__always)
    static func hash(_ name: UnsafeBufferPointer<UInt8>) -> Int {
        var hasher = Hasher()
        hasher.combine(bytes: UnsafeRawBufferPointer(name))
        return hasher.finalize()
    }

    /// The known names by their bytes: open addressing over FNV-1a hashes, built once.
    struct KnownNames: Sendable {
        static let table = KnownNames()

        private var hashes: [UInt32]
        private var entries: [Int16]
        /// Every name's bytes back to back; `starts[raw value]..<starts[raw value + 1]` is one.
        private var names: [UInt8]
        private var starts: [Int]
        private let mask: Int

        /// The known names are told apart by `ByteEquality.shortHash` (length and the first and
        /// last eight bytes); unknown names, which a client chooses, are hashed in full by `NameSet`.
        @inline(__always)
        static func hash(_ name: UnsafeBufferPointer<UInt8>) -> UInt32 { ByteEquality.shortHash(name) }

        init() {
            let size = 128
            precondition(size >= 2 * SKANParameter.allCases.count)
            hashes = Array(repeating: 0, count: size)
            entries = Array(repeating: -1, count: size)
            names = []
            starts = [0]
            for parameter in SKANParameter.allCases {
                names += parameter.name.utf8
                starts.append(names.count)
            }
            mask = size - 1
            for parameter in SKANParameter.allCases {
                let range = starts[parameter.rawValue]..<starts[parameter.rawValue + 1]
                let h = names.withUnsafeBufferPointer { KnownNames.hash(UnsafeBufferPointer(rebasing: $0[range])) }
                var slot = Int(h) & mask
                while entries[slot] >= 0 { slot = (slot + 1) & mask }
                hashes[slot] = h
                entries[slot] = Int16(parameter.rawValue)
            }
        }

        func lookup(_ name: UnsafeBufferPointer<UInt8>) -> SKANParameter? {
            guard name.count <= 40 else { return nil }
            let h = KnownNames.hash(name)
            var slot = Int(h) & mask
            while true {
                let entry = Int(entries[slot])
                if entry < 0 { return nil }
                if hashes[slot] == h
                    && names.withUnsafeBufferPointer({
                        RequestParameters.same(
                            UnsafeBufferPointer(rebasing: $0[starts[entry]..<starts[entry + 1]]), name)
                    })
                {
                    return SKANParameter(rawValue: entry)
                }
                slot = (slot + 1) & mask
            }
        }
    }

    /// Byte equality, eight at a time.
    @inline(__always)
    static func same(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        ByteEquality.same(a, b)
    }

    /// The distinct unknown names seen so far (indices of their first field), so that counting
    /// them stays linear however many a request sends.
    struct NameSet: Sendable {
        private var table: [Int32] = []
        private var count = 0

        /// Adds the name of field `index`; false when an earlier field had the same name.
        mutating func insert(
            _ name: UnsafeBufferPointer<UInt8>, index: Int, fields: [Field],
            bytes: UnsafeBufferPointer<UInt8>
        ) -> Bool {
            if (count + 1) * 2 > table.count { grow(fields: fields, bytes: bytes) }
            let mask = table.count - 1
            var slot = RequestParameters.hash(name) & mask
            while true {
                let j = Int(table[slot])
                if j < 0 {
                    table[slot] = Int32(index)
                    count += 1
                    return true
                }
                if RequestParameters.same(UnsafeBufferPointer(rebasing: bytes[fields[j].name]), name) { return false }
                slot = (slot + 1) & mask
            }
        }

        private mutating func grow(fields: [Field], bytes: UnsafeBufferPointer<UInt8>) {
            let old = table
            table = Array(repeating: -1, count: max(16, old.count * 2))
            let mask = table.count - 1
            for j in old where j >= 0 {
                var slot = RequestParameters.hash(UnsafeBufferPointer(rebasing: bytes[fields[Int(j)].name])) & mask
                while table[slot] >= 0 { slot = (slot + 1) & mask }
                table[slot] = j
            }
        }
    }
}
