import SKANDomain
import SKANFiles

/// What a JSON file in `config/` is, so `skan-mock validate config/*.json` checks the models and
/// says of the others what they are, instead of reporting a JSON Schema or a scenario as a broken
/// model ("unknown key" six times).
public enum ConfigFileKind: Equatable, Sendable {
    case model
    /// A JSON Schema (`"$schema"` names json-schema.org), such as `config/model.schema.json`.
    case jsonSchema
    /// A `skan-mock simulate --scenario` file: `steps`, and none of the keys only a model has (a
    /// scenario's `s2s` says whether to forward to the S2S endpoints; a model's is an object).
    case scenario

    /// The kind of a parsed file; anything that is neither a schema nor a scenario is checked as a
    /// model, so a model with a mistake is still reported as one.
    public static func of(_ json: JSONValue) -> ConfigFileKind {
        if let schema = json["$schema"]?.stringValue, schema.contains("json-schema.org") { return .jsonSchema }
        let modelKeys = ["currency", "skan3", "skan4", "faults"]
        if json["steps"]?.arrayValue != nil, !modelKeys.contains(where: { json[$0] != nil }),
            json["s2s"]?.objectValue == nil
        {
            return .scenario
        }
        return .model
    }

    /// The kind of the file at `path`, or `.model` when it cannot be read or parsed (the model check
    /// then says why).
    public static func of(path: String) -> ConfigFileKind {
        guard let bytes = try? FileBytes.read(path), let json = try? JSONParser.parse(bytes) else { return .model }
        return of(json)
    }

    /// The line `validate` prints for a file it skips.
    public var skipNote: String? {
        switch self {
        case .model: nil
        case .jsonSchema: "skipped: a JSON Schema (for editors checking model files), not a model"
        case .scenario: "skipped: a scenario for `skan-mock simulate --scenario`, not a model"
        }
    }
}
