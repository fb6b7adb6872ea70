/// What a postback's value means: the model's entries that produce it (`fine 10 = revenue >= 0.01
/// in p0`), so QA sees the measurement, not a number; and a finding when no entry produces it (the
/// app set a value the model never gives).
public enum PostbackMeaning {
    public struct Meaning: Sendable, Equatable {
        /// The entries' documents as the model file has them, with `index` and `window` added.
        public var entries: [JSONValue]
        public var finding: ValidationFinding?
    }

    /// The meaning of SKAN 4 postback `postback` (its window's table; a fine value is p0's).
    public static func skan4(_ postback: PostbackSimulator.Postback, model: ConversionModel) -> Meaning? {
        let n = postback.index
        if let fine = postback.fine { return meaning(value: fine, kind: "fine", table: 0, model: model) }
        if let coarse = postback.coarse { return meaning(value: coarse, kind: "coarse", table: n, model: model) }
        return nil
    }

    /// The meaning of a received SKAN 4 postback's values (`coarse` by name: low, medium, high).
    public static func received(index: Int, fine: Int64?, coarse: String?, model: ConversionModel) -> Meaning? {
        if let fine { return meaning(value: fine, kind: "fine", table: 0, model: model) }
        if let coarse, let value = CoarseValue.value(named: coarse) {
            return meaning(value: value, kind: "coarse", table: index, model: model)
        }
        return nil
    }

    private static func meaning(value: Int64, kind: String, table n: Int, model: ConversionModel) -> Meaning {
        let window = "p\(n)"
        guard let table = model.skan4[n] else {
            return Meaning(
                entries: [],
                finding: ValidationFinding(
                    param: window, code: .valueNotInModel,
                    message:
                        "\(kind) \(value) in \(window): the model has no \(window) table, so it never gives this value")
            )
        }
        let documents = model.json["skan4"]?[window]?["entries"]?.arrayValue ?? []
        var entries: [JSONValue] = []
        for (index, entry) in table.entries.enumerated() where (kind == "fine" ? entry.fine : entry.coarse) == value {
            entries.append(
                annotate(index < documents.count ? documents[index] : .null, index: .int(Int64(index)), window: window))
        }
        if let fallback = table.defaultAnswer, (kind == "fine" ? fallback.fine : fallback.coarse) == value {
            entries.append(
                annotate(model.json["skan4"]?[window]?["default"] ?? .null, index: "default", window: window))
        }
        let finding =
            entries.isEmpty
            ? ValidationFinding(
                param: window, code: .valueNotInModel,
                message:
                    "\(kind) \(value) in \(window) is produced by no entry of the model \(model.name): the app set a value the model never gives"
            ) : nil
        return Meaning(entries: entries, finding: finding)
    }

    private static func annotate(_ document: JSONValue, index: JSONValue, window: String) -> JSONValue {
        var members = [JSONMember("window", .string(window)), JSONMember("index", index)]
        members += document.objectValue ?? []
        return .object(members)
    }
}
