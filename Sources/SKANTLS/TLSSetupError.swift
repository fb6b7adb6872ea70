/// Why HTTPS could not be set up: a file that is missing, unreadable, not PEM, or a key that does not
/// match its certificate. It names the file so that start-up can fail with one line a user can act on.
public struct TLSSetupError: Error, CustomStringConvertible, Sendable {
    /// The file at fault, when one is.
    public let file: String?
    public let reason: String

    public init(file: String? = nil, _ reason: String) {
        self.file = file
        self.reason = reason
    }

    public var description: String { file.map { "\($0): \(reason)" } ?? reason }

    /// The same failure, now attributed to a file.
    func about(_ file: String) -> TLSSetupError { TLSSetupError(file: file, reason) }
}
