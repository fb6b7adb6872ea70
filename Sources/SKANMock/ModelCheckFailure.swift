/// A model file that did not load: one line leading with the first problem (`summary`), and every
/// problem on a line of its own (`lines`).
public struct ModelCheckFailure: Error, Sendable {
    public let summary: String
    public let lines: [String]
}
