/// Parameter lookup by name. Repeated keys keep the last value (SPEC 1); an empty value counts as
/// absent, because clients send `key=` for values they do not have (NSURLQueryItem with nil).
public struct RequestParameters: Sendable {
    private var last: [String: String]

    public init(_ pairs: [(name: String, value: String)]) {
        last = Dictionary(minimumCapacity: pairs.count)
        for pair in pairs { last[pair.name] = pair.value }
    }

    /// How many different names were sent.
    public var distinctNames: Int { last.count }

    /// The last value sent for `name`, nil when absent or empty.
    public subscript(name: String) -> String? {
        guard let value = last[name], !value.isEmpty else { return nil }
        return value
    }

    /// The last value sent for `name`, even when empty; nil only when absent.
    public func raw(_ name: String) -> String? { last[name] }

    /// The first of `names` that has a non-empty value, with its name.
    public func first(of names: String...) -> (name: String, value: String)? {
        for name in names { if let value = self[name] { return (name, value) } }
        return nil
    }
}
