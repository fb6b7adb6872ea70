/// A property list read once into typed values (`PropertyList.read`), whichever of Apple's two
/// formats it came in, so the Info.plist rules (`InfoPlistCheck`) never see bytes or XML.
/// A dictionary keeps its keys in the file's order, for findings listed as the file lists them.
public indirect enum PropertyListValue: Sendable, Equatable {
    case string(String)
    case integer(Int64)
    case real(Double)
    case bool(Bool)
    /// Seconds since 2001-01-01T00:00:00Z, as both formats count them.
    case date(Double)
    case data([UInt8])
    case array([PropertyListValue])
    case dictionary([PropertyListEntry])

    /// The value of `key` in a dictionary (the last, as CoreFoundation keeps, when a key repeats).
    public subscript(key: String) -> PropertyListValue? {
        guard case .dictionary(let entries) = self else { return nil }
        return entries.last { $0.key == key }?.value
    }

    public var stringValue: String? { if case .string(let s) = self { s } else { nil } }
    public var boolValue: Bool? { if case .bool(let b) = self { b } else { nil } }
    public var arrayValue: [PropertyListValue]? { if case .array(let a) = self { a } else { nil } }
    public var entries: [PropertyListEntry]? { if case .dictionary(let d) = self { d } else { nil } }

    /// The type's name as Xcode's property list editor shows it (`String`, `Number`, `Boolean`...),
    /// for findings that say what was written and what was expected.
    public var typeName: String {
        switch self {
        case .string: "String"
        case .integer, .real: "Number"
        case .bool: "Boolean"
        case .date: "Date"
        case .data: "Data"
        case .array: "Array"
        case .dictionary: "Dictionary"
        }
    }
}

/// One key of a property list dictionary and its value.
public struct PropertyListEntry: Sendable, Equatable {
    public var key: String
    public var value: PropertyListValue

    public init(_ key: String, _ value: PropertyListValue) {
        self.key = key
        self.value = value
    }
}
