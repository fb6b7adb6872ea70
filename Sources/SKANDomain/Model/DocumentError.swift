/// A document a person wrote that cannot be used (a model or fault list, a replay file or the
/// journal it is recorded from, a scenario): the file and what is wrong in it, each problem with
/// where (a JSON path such as `$.skan4.p0.entries[2].fine`, a line, or nothing for the file as a
/// whole) and why. One type for all of them, so each is told alike: `description` is one line that
/// leads with the first problem, `fullDescription` every problem, one per line. A model file
/// collects every problem; the others stop at the first.
public struct DocumentError: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var problems: [JSONProblem]

    public init(file: String, problems: [JSONProblem]) {
        self.file = file
        self.problems = problems
    }

    /// One problem at `path` (empty for the file as a whole).
    public init(file: String, path: String, reason: String) {
        self.init(file: file, problems: [JSONProblem(path: path, reason: reason)])
    }

    /// Where the first problem is; empty for the file as a whole.
    public var path: String { problems.first?.path ?? "" }
    public var reason: String { problems.first?.reason ?? "not usable" }

    public var description: String {
        let more =
            problems.count > 1
            ? " (and \(problems.count - 1) more problem\(problems.count == 2 ? "" : "s"): skan-mock validate \(file) lists them all)"
            : ""
        return "\(file): \(Self.at(path))\(reason)\(more)"
    }

    /// Every problem, one per line, each naming the file.
    public var fullDescription: String {
        problems.map { "\(file): \(Self.at($0.path))\($0.reason)" }.joined(separator: "\n")
    }

    private static func at(_ path: String) -> String { path.isEmpty ? "" : path + ": " }
}

/// A model file (or `PUT /__admin/faults` list) that did not load, every problem kept.
public typealias ModelError = DocumentError
/// One thing wrong with a model file.
public typealias ModelProblem = JSONProblem
/// Why a replay file (`--replay`), or the journal one is recorded from, cannot be used.
public typealias ReplayFileError = DocumentError
