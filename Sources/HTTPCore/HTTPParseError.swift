/// Why the bytes on a connection are not a request we will serve: the status to answer with and a
/// short reason for the body. The connection is always closed after answering one of these.
public struct HTTPParseError: Error, Equatable, Sendable, CustomStringConvertible {
    public let status: HTTPStatus
    public let reason: String

    public init(_ status: HTTPStatus, _ reason: String) {
        self.status = status
        self.reason = reason
    }

    public var description: String { "\(status.code): \(reason)" }

    static func malformed(_ reason: String) -> HTTPParseError { HTTPParseError(.badRequest, reason) }
}
