/// Header fields in the order they came, names compared case-insensitively (RFC 9110 §5.1).
/// A plain array: requests carry a handful of headers, so a linear scan beats hashing.
public struct HTTPHeaders: Sendable, Sequence, ExpressibleByDictionaryLiteral {
    public typealias Element = (name: String, value: String)

    private var fields: [Element]

    public init() { fields = [] }

    public var isEmpty: Bool { fields.isEmpty }

    public init(_ fields: [Element]) { self.fields = fields }

    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { (name: $0.0, value: $0.1) }
    }

    public var count: Int { fields.count }

    public func makeIterator() -> IndexingIterator<[Element]> { fields.makeIterator() }

    /// The first value for `name`, or nil.
    public subscript(name: String) -> String? {
        for field in fields where field.name.isEqualIgnoringASCIICase(name) { return field.value }
        return nil
    }

    /// Every value for `name`, in order.
    public func values(for name: String) -> [String] {
        fields.filter { $0.name.isEqualIgnoringASCIICase(name) }.map(\.value)
    }

    public func contains(_ name: String) -> Bool { self[name] != nil }

    public mutating func add(_ name: String, _ value: String) { fields.append((name, value)) }

    /// Room for `count` fields, so that a parsed head's fields go in without regrowing.
    public mutating func reserveCapacity(_ count: Int) { fields.reserveCapacity(count) }

    /// Replaces every field called `name` by one with `value`.
    public mutating func set(_ name: String, _ value: String) {
        remove(name)
        fields.append((name, value))
    }

    public mutating func remove(_ name: String) {
        fields.removeAll { $0.name.isEqualIgnoringASCIICase(name) }
    }

    /// Whether the comma-separated list in `name` holds `token` (e.g. `Connection: keep-alive, Upgrade`).
    public func containsToken(_ token: String, in name: String) -> Bool {
        for field in fields where field.name.isEqualIgnoringASCIICase(name) {
            for part in field.value.split(separator: ",") {
                if part.trimmingASCIIWhitespace().isEqualIgnoringASCIICase(token) { return true }
            }
        }
        return false
    }
}

extension StringProtocol {
    /// ASCII case-insensitive comparison, all that header names and tokens need; no locale, no allocation.
    func isEqualIgnoringASCIICase<Other: StringProtocol>(_ other: Other) -> Bool {
        // Most names asked for are not the one at hand, and most differ in length.
        guard utf8.count == other.utf8.count else { return false }
        var a = utf8.makeIterator()
        var b = other.utf8.makeIterator()
        while true {
            switch (a.next(), b.next()) {
            case (nil, nil): return true
            case (let x?, let y?):
                if x != y && ASCII.lowercased(x) != ASCII.lowercased(y) { return false }
            default: return false
            }
        }
    }

    /// Without leading and trailing spaces and tabs (HTTP's optional whitespace).
    public func trimmingASCIIWhitespace() -> Substring {
        var slice = Substring(self)
        while let first = slice.first, first == " " || first == "\t" { slice.removeFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice.removeLast() }
        return slice
    }
}
