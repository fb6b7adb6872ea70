/// One problem (or, as a note, one thing worth knowing) in an app's Info.plist attribution keys:
/// where (`SKAdNetworkItems[3].SKAdNetworkIdentifier`), what is wrong, what to write instead, and
/// the Apple page the rule comes from, so a QA engineer can fix the build without looking it up.
public struct InfoPlistFinding: Sendable, Equatable {
    public enum Severity: String, Sendable {
        /// Copies or attributions are lost, or the key is ignored: fails `--fail-on-findings`.
        case error
        /// Worth knowing (a local endpoint, a subdomain Apple drops): never fails a run.
        case note
    }

    public var severity: Severity
    public var rule: InfoPlistRule
    /// A stable name for the mistake (`skadnetwork_identifier_case`), for CI and JUnit.
    public var code: String
    /// The key's place: keys joined with `.`, array items as `[N]` from 0, as Xcode's editor counts.
    public var keyPath: String
    public var message: String
    /// What to write instead, when there is one thing to write.
    public var fix: String?
    /// The Apple documentation page the rule is taken from.
    public var reference: String

    public init(
        _ severity: Severity, _ rule: InfoPlistRule, _ code: String, at keyPath: String, _ message: String,
        fix: String? = nil, reference: String
    ) {
        self.severity = severity
        self.rule = rule
        self.code = code
        self.keyPath = keyPath
        self.message = message
        self.fix = fix
        self.reference = reference
    }
}

/// The groups of keys `InfoPlistCheck` checks, one JUnit testcase each.
public enum InfoPlistRule: String, Sendable, CaseIterable {
    case skadNetworkItems = "SKAdNetworkItems"
    case reportEndpoint = "NSAdvertisingAttributionReportEndpoint"
    case copyEndpoint = "AttributionCopyEndpoint"
    case optIns = "AdAttributionKit opt-ins"
    case configurations = "AdAttributionKitConfigurations"
    case file = "Info.plist"
}

/// Where the system will post copies of winning postbacks, from a valid endpoint key.
public struct PostbackCopyDestination: Sendable, Equatable {
    public var keyPath: String
    /// `SKAdNetwork install-validation postbacks`, `AdAttributionKit postbacks`, ...
    public var what: String
    public var url: String
}
