/// Every parameter name Singular's clients send, written out literally once (`name`), so that
/// `grep -rn p0_coarse Sources` lands here and the readers name these cases.
///
/// A case, not a string: a request's parameters are sorted into one slot per case as they are
/// decoded (`RequestParameters`), so the thirty lookups a request needs are array reads, not
/// string hashes and compares.
public enum SKANParameter: Int, CaseIterable, Sendable {
    // MARK: identity, every endpoint

    /// The SDK key.
    case apiKey
    /// The bundle id.
    case bundleID
    case appVersion
    /// The platform (`iOS`).
    case platform
    /// The OS version; some clients send `ve`.
    case osVersion
    case osVersionAlias
    /// The event name; `__SESSION__` for a session.
    case event
    case idfv
    /// An id some clients send instead of the IDFA.
    case sing
    case idfa
    /// The Singular Device ID of the v2 S2S endpoints.
    case sdid
    /// Android's device ids, as Singular's S2S reference names them: the Google advertising id, the
    /// App Set ID, the open advertising id (OAID), the Amazon advertising id, the Android ID.
    case aifa, asid, oaid, amid, andi

    // MARK: SKAN 3 (`/api/v1/conversion_value`)

    case skan3ConversionValue
    case skan3TotalRevenue
    case skan3FirstCall
    case skan3LastCall

    // MARK: SKAN 4 (`/api/v2/conversion_value`, forwarded to S2S)

    case currentFine
    case prevFine
    case firstCall
    case lastCall
    case totalRevenue
    case totalAdmonRevenue

    // MARK: the SKAN 3 names S2S senders use for the same values

    case s2sConversionValue
    case s2sFirstCall
    case s2sLastCall

    // MARK: SKAN 4, per window

    case p0Coarse, p0PrevCoarse, p0WindowLock, p0TotalIAPRevenue, p0TotalAdmonRevenue
    case p1Coarse, p1PrevCoarse, p1WindowLock, p1TotalIAPRevenue, p1TotalAdmonRevenue
    case p2Coarse, p2PrevCoarse, p2WindowLock, p2TotalIAPRevenue, p2TotalAdmonRevenue

    /// The name as it appears in the query string.
    public var name: String {
        switch self {
        case .apiKey: "a"
        case .bundleID: "i"
        case .appVersion: "app_v"
        case .platform: "p"
        case .osVersion: "v"
        case .osVersionAlias: "ve"
        case .event: "n"
        case .idfv: "idfv"
        case .sing: "sing"
        case .idfa: "idfa"
        case .sdid: "sdid"
        case .aifa: "aifa"
        case .asid: "asid"
        case .oaid: "oaid"
        case .amid: "amid"
        case .andi: "andi"
        case .skan3ConversionValue: "conversion_value"
        case .skan3TotalRevenue: "total_revenue_by_currency"
        case .skan3FirstCall: "first_call_to_skadnetwork_timestamp"
        case .skan3LastCall: "last_call_to_skadnetwork_timestamp"
        case .currentFine: "skan_current_conversion_value"
        case .prevFine: "prev_fine_value"
        case .firstCall: "skan_first_call_to_skadnetwork_timestamp"
        case .lastCall: "skan_last_call_to_skadnetwork_timestamp"
        case .totalRevenue: "skan_total_revenue_by_currency"
        case .totalAdmonRevenue: "skan_total_admon_revenue_by_currency"
        case .s2sConversionValue: "skan_conversion_value"
        case .s2sFirstCall: "skan_first_call_timestamp"
        case .s2sLastCall: "skan_last_call_timestamp"
        case .p0Coarse: "p0_coarse"
        case .p0PrevCoarse: "p0_prev_coarse_value"
        case .p0WindowLock: "p0_window_lock"
        case .p0TotalIAPRevenue: "p0_total_iap_revenue"
        case .p0TotalAdmonRevenue: "p0_total_admon_revenue"
        case .p1Coarse: "p1_coarse"
        case .p1PrevCoarse: "p1_prev_coarse_value"
        case .p1WindowLock: "p1_window_lock"
        case .p1TotalIAPRevenue: "p1_total_iap_revenue"
        case .p1TotalAdmonRevenue: "p1_total_admon_revenue"
        case .p2Coarse: "p2_coarse"
        case .p2PrevCoarse: "p2_prev_coarse_value"
        case .p2WindowLock: "p2_window_lock"
        case .p2TotalIAPRevenue: "p2_total_iap_revenue"
        case .p2TotalAdmonRevenue: "p2_total_admon_revenue"
        }
    }

    /// Window N's parameters, indexed by N.
    public static let coarse: [SKANParameter] = [.p0Coarse, .p1Coarse, .p2Coarse]
    public static let prevCoarse: [SKANParameter] = [.p0PrevCoarse, .p1PrevCoarse, .p2PrevCoarse]
    public static let windowLock: [SKANParameter] = [.p0WindowLock, .p1WindowLock, .p2WindowLock]
    public static let windowIAPRevenue: [SKANParameter] = [.p0TotalIAPRevenue, .p1TotalIAPRevenue, .p2TotalIAPRevenue]
    public static let windowAdmonRevenue: [SKANParameter] = [
        .p0TotalAdmonRevenue, .p1TotalAdmonRevenue, .p2TotalAdmonRevenue
    ]
}
