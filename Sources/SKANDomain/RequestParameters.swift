/// Parameter lookup by name. Repeated keys keep the last value (SPEC 1); an empty value counts as
/// absent, because clients send `key=` for values they do not have (NSURLQueryItem with nil).
///
/// About thirty lookups happen per request, so this is a small open-addressing table with an FNV-1a
/// hash of the name instead of a Dictionary (whose seeded SipHash dominated the profile). Requests
/// with many parameters fall back to a Dictionary so that colliding names cannot make lookups quadratic.
public struct RequestParameters: Sendable {
    private static let smallLimit = 64

    private var names: [String] = []
    private var values: [String] = []
    private var hashes: [UInt32] = []
    /// Index into names/values of the last occurrence of each name; -1 for an empty slot.
    private var table: [Int32] = []
    private var large: [String: String]?
    /// How many different names were sent.
    public private(set) var distinctNames = 0

    public init(_ pairs: [(name: String, value: String)]) {
        if pairs.count > RequestParameters.smallLimit {
            var dictionary: [String: String] = Dictionary(minimumCapacity: pairs.count)
            for pair in pairs { dictionary[pair.name] = pair.value }
            large = dictionary
            distinctNames = dictionary.count
            return
        }
        var size = 16
        while size < pairs.count * 2 { size *= 2 }
        table = Array(repeating: -1, count: size)
        names.reserveCapacity(pairs.count)
        values.reserveCapacity(pairs.count)
        hashes.reserveCapacity(pairs.count)
        let mask = size - 1
        for (i, pair) in pairs.enumerated() {
            let h = RequestParameters.hash(pair.name)
            names.append(pair.name)
            values.append(pair.value)
            hashes.append(h)
            var slot = Int(h) & mask
            while true {
                let j = Int(table[slot])
                if j < 0 {
                    table[slot] = Int32(i)
                    distinctNames += 1
                    break
                }
                if hashes[j] == h && names[j] == pair.name {
                    table[slot] = Int32(i)
                    break
                }
                slot = (slot + 1) & mask
            }
        }
    }

    /// The last value sent for `name`, nil when absent or empty.
    public subscript(name: String) -> String? {
        guard let value = raw(name), !value.isEmpty else { return nil }
        return value
    }

    /// The last value sent for `name`, even when empty; nil only when absent.
    public func raw(_ name: String) -> String? {
        if let large { return large[name] }
        let h = RequestParameters.hash(name)
        let mask = table.count - 1
        var slot = Int(h) & mask
        while true {
            let j = Int(table[slot])
            if j < 0 { return nil }
            if hashes[j] == h && names[j] == name { return values[j] }
            slot = (slot + 1) & mask
        }
    }

    /// The first of `names` that has a non-empty value, with its name.
    public func first(of names: String...) -> (name: String, value: String)? {
        for name in names { if let value = self[name] { return (name, value) } }
        return nil
    }

    @inline(__always)
    static func hash(_ name: String) -> UInt32 {
        var h: UInt32 = 2_166_136_261
        for b in name.utf8 {
            h ^= UInt32(b)
            h &*= 16_777_619
        }
        return h
    }
}
