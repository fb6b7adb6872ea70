/// Which of Singular's endpoints a request is for: only what the conversion service answers. The
/// raw value is the journal's `endpoint`; the journal's other kinds (`unmatched`, `postback`) are
/// `JournalEndpoint`'s.
public enum SKANEndpoint: String, Sendable, CaseIterable {
    /// `/api/v1/conversion_value`
    case skan3
    /// `/api/v2/conversion_value`
    case skan4
    /// `/api/v1/launch`
    case launch
    /// `/api/v1/evt`
    case event
    /// `/api/v2/launch` (SDID-based S2S)
    case launch2
    /// `/api/v2/evt` (SDID-based S2S)
    case event2
    /// The endpoints that answer, in the order the README lists them.
    public static let served: [SKANEndpoint] = [.skan3, .skan4, .launch, .event, .launch2, .event2]

    /// The endpoint served at Singular's own `path`, or nil.
    public init?(path: String) {
        guard let endpoint = Self.served.first(where: { $0.path == path }) else { return nil }
        self = endpoint
    }

    /// The name `--route PATH=ENDPOINT` and fault rules use: the raw value, or `evt`/`evt2` as in
    /// Singular's paths.
    public init?(routeName: String) {
        switch routeName {
        case "evt": self = .event
        case "evt2": self = .event2
        default:
            guard let endpoint = SKANEndpoint(rawValue: routeName) else { return nil }
            self = endpoint
        }
    }

    /// Any name an endpoint goes by: the journal's (`event`, `launch2`, ...) or the one Singular's
    /// paths and `--route` use (`evt`, `evt2`), so filters, faults and routes take both.
    public init?(name: String) {
        if let endpoint = SKANEndpoint(rawValue: name) {
            self = endpoint
        } else if let endpoint = SKANEndpoint(routeName: name) {
            self = endpoint
        } else {
            return nil
        }
    }

    /// The name `--route` and fault rules take: `evt`/`evt2` as in Singular's paths, else the raw value.
    public var routeName: String {
        switch self {
        case .event: "evt"
        case .event2: "evt2"
        default: rawValue
        }
    }

    /// Singular's path for the endpoint.
    public var path: String {
        switch self {
        case .skan3: "/api/v1/conversion_value"
        case .skan4: "/api/v2/conversion_value"
        case .launch: "/api/v1/launch"
        case .event: "/api/v1/evt"
        case .launch2: "/api/v2/launch"
        case .event2: "/api/v2/evt"
        }
    }

    /// Singular's server-to-server endpoints (v1 keyed by idfv, v2 by sdid).
    public var isS2S: Bool { self == .launch || self == .event || self == .launch2 || self == .event2 }

    /// The v2 S2S endpoints identify the device by `sdid`.
    public var isSDIDBased: Bool { self == .launch2 || self == .event2 }

    /// A session notification (`launch`), which counts as the event `__SESSION__`.
    public var isLaunch: Bool { self == .launch || self == .launch2 }
}
