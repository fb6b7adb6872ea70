/// Every parameter name Singular's clients send, written out literally once, so that
/// `grep -rn p0_coarse Sources` lands here and the readers below name these constants. Plain
/// `String`s: the parsers look them up on every request, and spelling them out (no interpolation)
/// keeps that free.
public enum SKANParameterName {
    // MARK: identity, every endpoint

    /// The SDK key.
    public static let apiKey = "a"
    /// The bundle id.
    public static let bundleID = "i"
    public static let appVersion = "app_v"
    /// The platform (`iOS`).
    public static let platform = "p"
    /// The OS version; some clients send `ve`.
    public static let osVersion = "v"
    public static let osVersionAlias = "ve"
    /// The event name; `__SESSION__` for a session.
    public static let event = "n"
    public static let idfv = "idfv"
    /// An id some clients send instead of the IDFA.
    public static let sing = "sing"
    public static let idfa = "idfa"
    /// The Singular Device ID of the v2 S2S endpoints.
    public static let sdid = "sdid"

    // MARK: SKAN 3 (`/api/v1/conversion_value`)

    public static let skan3ConversionValue = "conversion_value"
    public static let skan3TotalRevenue = "total_revenue_by_currency"
    public static let skan3FirstCall = "first_call_to_skadnetwork_timestamp"
    public static let skan3LastCall = "last_call_to_skadnetwork_timestamp"

    // MARK: SKAN 4 (`/api/v2/conversion_value`, forwarded to S2S)

    public static let currentFine = "skan_current_conversion_value"
    public static let prevFine = "prev_fine_value"
    public static let firstCall = "skan_first_call_to_skadnetwork_timestamp"
    public static let lastCall = "skan_last_call_to_skadnetwork_timestamp"
    public static let totalRevenue = "skan_total_revenue_by_currency"
    public static let totalAdmonRevenue = "skan_total_admon_revenue_by_currency"

    // MARK: the SKAN 3 names S2S senders use for the same values

    public static let s2sConversionValue = "skan_conversion_value"
    public static let s2sFirstCall = "skan_first_call_timestamp"
    public static let s2sLastCall = "skan_last_call_timestamp"

    // MARK: SKAN 4, per window

    public static let p0Coarse = "p0_coarse"
    public static let p0PrevCoarse = "p0_prev_coarse_value"
    public static let p0WindowLock = "p0_window_lock"
    public static let p0TotalIAPRevenue = "p0_total_iap_revenue"
    public static let p0TotalAdmonRevenue = "p0_total_admon_revenue"

    public static let p1Coarse = "p1_coarse"
    public static let p1PrevCoarse = "p1_prev_coarse_value"
    public static let p1WindowLock = "p1_window_lock"
    public static let p1TotalIAPRevenue = "p1_total_iap_revenue"
    public static let p1TotalAdmonRevenue = "p1_total_admon_revenue"

    public static let p2Coarse = "p2_coarse"
    public static let p2PrevCoarse = "p2_prev_coarse_value"
    public static let p2WindowLock = "p2_window_lock"
    public static let p2TotalIAPRevenue = "p2_total_iap_revenue"
    public static let p2TotalAdmonRevenue = "p2_total_admon_revenue"

    /// Window N's names, indexed by N.
    public static let coarse = [p0Coarse, p1Coarse, p2Coarse]
    public static let prevCoarse = [p0PrevCoarse, p1PrevCoarse, p2PrevCoarse]
    public static let windowLock = [p0WindowLock, p1WindowLock, p2WindowLock]
    public static let windowIAPRevenue = [p0TotalIAPRevenue, p1TotalIAPRevenue, p2TotalIAPRevenue]
    public static let windowAdmonRevenue = [p0TotalAdmonRevenue, p1TotalAdmonRevenue, p2TotalAdmonRevenue]
}
