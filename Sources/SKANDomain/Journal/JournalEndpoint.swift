/// What the journal says an exchange was (its `endpoint`, and the metrics label): one of Singular's
/// endpoints, a path none serves (`unmatched`, journaled so a QA engineer whose app calls a wrong
/// URL sees it), or a postback received or sent. Kept apart from `SKANEndpoint`, which names only
/// what the conversion service answers, so the service cannot be asked to answer a postback.
/// The raw values are the journal's spelling, the same as `SKANEndpoint`'s for its cases.
public enum JournalEndpoint: String, Sendable, CaseIterable {
    case skan3
    case skan4
    case launch
    case event
    case launch2
    case event2
    /// A path no endpoint (nor alias) serves.
    case unmatched
    /// A postback received at `/.well-known/skadnetwork/report-attribution/` or
    /// `/.well-known/appattribution/report-attribution/` (`PostbackReceiver`), or sent by the
    /// postback sender: never answered again.
    case postback

    /// The journal's name for a Singular endpoint.
    public init(_ endpoint: SKANEndpoint) {
        switch endpoint {
        case .skan3: self = .skan3
        case .skan4: self = .skan4
        case .launch: self = .launch
        case .event: self = .event
        case .launch2: self = .launch2
        case .event2: self = .event2
        }
    }

    /// Any name an endpoint goes by: the journal's (`event`, `unmatched`, ...) or the one
    /// Singular's paths and `--route` use (`evt`, `evt2`), so filters take both.
    public init?(name: String) {
        if let endpoint = JournalEndpoint(rawValue: name) {
            self = endpoint
        } else if let endpoint = SKANEndpoint(routeName: name) {
            self.init(endpoint)
        } else {
            return nil
        }
    }

    /// The Singular endpoint, which the conversion service can answer (again); nil for
    /// `unmatched` and `postback`.
    public var singular: SKANEndpoint? {
        switch self {
        case .skan3: .skan3
        case .skan4: .skan4
        case .launch: .launch
        case .event: .event
        case .launch2: .launch2
        case .event2: .event2
        case .unmatched, .postback: nil
        }
    }
}
