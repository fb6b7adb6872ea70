/// A request to one of the Singular-compatible endpoints, as the HTTP layer saw it. Parameters are
/// already percent-decoded, query first and then form body, in arrival order (repeats kept).
public struct SKANRequest: Sendable {
    public var method: String
    public var path: String
    /// "address:port" of the client.
    public var remote: String
    public var parameters: [(name: String, value: String)]

    public init(method: String = "GET", path: String, remote: String = "", parameters: [(name: String, value: String)]) {
        self.method = method
        self.path = path
        self.remote = remote
        self.parameters = parameters
    }
}

/// Which Singular endpoint a request was for; the raw value is the journal's `endpoint`.
public enum SKANEndpoint: String, Sendable, CaseIterable {
    /// `/api/v1/conversion_value`
    case skan3
    /// `/api/v2/conversion_value`
    case skan4
    /// `/api/v1/launch`
    case launch
    /// `/api/v1/evt`
    case event

    /// The endpoint served at `path`, or nil.
    public init?(path: String) {
        switch path {
        case "/api/v1/conversion_value": self = .skan3
        case "/api/v2/conversion_value": self = .skan4
        case "/api/v1/launch": self = .launch
        case "/api/v1/evt": self = .event
        default: return nil
        }
    }

    public var path: String {
        switch self {
        case .skan3: return "/api/v1/conversion_value"
        case .skan4: return "/api/v2/conversion_value"
        case .launch: return "/api/v1/launch"
        case .event: return "/api/v1/evt"
        }
    }
}
