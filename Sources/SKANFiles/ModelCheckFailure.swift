/// A model file that did not load: one line leading with the first problem (`summary`), and every
/// problem on a line of its own (`lines`).
public struct ModelCheckFailure: Error, Sendable {
    public let summary: String
    public let lines: [String]
    /// The file could not be read at all (out of descriptors, a permission, a file mid-replace),
    /// as opposed to a file that says something wrong: worth trying again without a change.
    public var couldNotRead = false
}
