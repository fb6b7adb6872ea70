/// One thing wrong with a model file: where (a JSON path such as `$.skan4.p0.entries[2].fine`) and why.
public struct ModelProblem: Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(path): \(reason)" }
}

/// A model file that did not load. Every problem found is kept; `description` is one line that
/// leads with the first ("config/x.json: $.skan4.p0.combine: ..."), for logs and `validate`.
public struct ModelError: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var problems: [ModelProblem]

    public init(file: String, problems: [ModelProblem]) {
        self.file = file
        self.problems = problems
    }

    public var path: String { problems.first?.path ?? "$" }
    public var reason: String { problems.first?.reason ?? "invalid model" }

    public var description: String {
        let more =
            problems.count > 1
            ? " (and \(problems.count - 1) more problem\(problems.count == 2 ? "" : "s"): skan-mock validate \(file) lists them all)"
            : ""
        return "\(file): \(path): \(reason)\(more)"
    }

    /// Every problem, one per line, each naming the file.
    public var fullDescription: String {
        problems.map { "\(file): \($0.path): \($0.reason)" }.joined(separator: "\n")
    }
}
