/// How a postback compares with what skan-mock predicts for its device, decided when it is
/// journaled (`postback.comparison`), so the journal line, the console and a saved journal say it
/// without asking the admin API. The comparison itself is `PostbackComparison`'s (SKANReport), the
/// same code `GET /__admin/postbacks/received` and `skan-mock report` use; this is its outcome.
public struct PredictionVerdict: Sendable, Equatable {
    public enum Result: String, Sendable, CaseIterable {
        /// The window's value is the one predicted (at the tier the postback shows).
        case matches
        /// Another value, no postback predicted for that window, or a device skan-mock does not know.
        case differs
        /// Nothing to compare with: no device was named on the receiving URL (a phone names none;
        /// `GET /__admin/postbacks/received?device=ID` compares with one).
        case unverified
    }

    public var result: Result
    /// The crowd-anonymity tier the postback was read at; nil for SKAN 3.
    public var tier: Int?
    /// Each difference in words; empty when it matches.
    public var differences: [String]
    /// The predicted postback's `status`, `fine` and `coarse`; null when nothing was predicted.
    public var predicted: JSONValue

    public init(result: Result, tier: Int?, differences: [String], predicted: JSONValue) {
        self.result = result
        self.tier = tier
        self.differences = differences
        self.predicted = predicted
    }

    /// The journal's `comparison`.
    public var json: JSONValue {
        .object([
            JSONMember(JournalRecord.Field.result, .string(result.rawValue)),
            JSONMember(JournalRecord.Field.tier, tier.map { .int(Int64($0)) } ?? .null),
            JSONMember(JournalRecord.Field.differences, .array(differences.map { .string($0) })),
            JSONMember(JournalRecord.Field.predicted, predicted)
        ])
    }

    /// Reads `comparison` at `at`.
    static func read(_ value: JSONValue, at: String) throws(JSONProblem) -> PredictionVerdict {
        typealias F = JournalRecord.Field
        guard case .object = value else { throw JournalRecord.typeProblem(at, "an object", value) }
        let name = try JournalRecord.string(value, F.result, at) ?? ""
        guard let result = Result(rawValue: name) else {
            throw JSONProblem(
                path: CheckedJSON.child(at, F.result), reason: "not matches, differs or unverified: \(name)")
        }
        var differences: [String] = []
        if let list = value[F.differences], !list.isNull {
            guard let items = list.arrayValue else {
                throw JournalRecord.typeProblem(CheckedJSON.child(at, F.differences), "an array", list)
            }
            for (n, item) in items.enumerated() {
                guard let text = item.stringValue else {
                    throw JournalRecord.typeProblem("\(at).\(F.differences)[\(n)]", "a string", item)
                }
                differences.append(text)
            }
        }
        return PredictionVerdict(
            result: result, tier: try JournalRecord.integer(value, F.tier, at).map { Int($0) },
            differences: differences, predicted: value[F.predicted] ?? .null)
    }
}
