/// Why bytes are not a property list, in one line that says where (`binary property list: object
/// 3 at byte 120: ...`, `XML property list: line 12: ...`); the command puts the file's name first.
public struct PropertyListError: Error, Sendable, Equatable, CustomStringConvertible {
    public var reason: String

    public init(_ reason: String) { self.reason = reason }

    public var description: String { reason }
}
