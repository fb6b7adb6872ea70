/// Why a replay file (`--replay`), or the journal one is recorded from (`skan-mock record`), cannot
/// be used: the file, where in it (a JSON path such as `$.devices[0].requests[2].status`, or
/// `line 7` of a journal; empty for the file as a whole) and the reason, in one line, as a model
/// file's problems are told.
public struct ReplayFileError: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var location: String
    public var reason: String

    public init(file: String, location: String, reason: String) {
        self.file = file
        self.location = location
        self.reason = reason
    }

    public var description: String { location.isEmpty ? "\(file): \(reason)" : "\(file): \(location): \(reason)" }
}
