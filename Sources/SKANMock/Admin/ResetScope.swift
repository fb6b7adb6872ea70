/// What `POST /__admin/reset` puts back (`?scope=`): by default what tests change by using the
/// server (journal, devices, faults); `all` also what they change on purpose (model and clock), so
/// one test's set-up cannot leak into the next.
enum ResetScope: String, Sendable, CaseIterable {
    case state
    case all

    /// The parts reset, in the order the answer lists them.
    var parts: [String] {
        switch self {
        case .state: ["journal", "devices", "faults"]
        case .all: ["journal", "devices", "faults", "model", "clock"]
        }
    }

    /// Reads `scope=state|all` (default `state`); anything else is an error.
    init(query: [(name: String, value: String)]) throws(AdminQueryError) {
        self = .state
        for (name, value) in query {
            guard name == "scope" else {
                throw AdminQueryError(reason: "unknown parameter \(name); reset takes only scope=state|all")
            }
            guard let scope = ResetScope(rawValue: value) else {
                throw AdminQueryError(reason: "scope must be state or all")
            }
            self = scope
        }
    }
}
