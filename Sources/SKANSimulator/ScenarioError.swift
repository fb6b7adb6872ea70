/// Why a scenario file cannot be run: the file, where in it (a JSON path such as
/// `$.steps[3].revenue.amount`, or a line and column for bad JSON), and what is wrong.
public struct ScenarioError: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var location: String
    public var reason: String

    public init(file: String, location: String, reason: String) {
        self.file = file
        self.location = location
        self.reason = reason
    }

    public var description: String { "\(file): \(location): \(reason)" }
}
