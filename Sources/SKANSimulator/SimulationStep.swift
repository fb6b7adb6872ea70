/// One thing the simulated app does; each maps to a call of the snippet's public API, or to the
/// simulated clock moving on.
public enum SimulationStep: Sendable, Equatable {
    /// `registerAppForAdNetworkAttribution` (first launch).
    case register
    /// `updateConversionValuesAsync:` with `__SESSION__`.
    case session
    /// `updateConversionValuesAsync:withCompletionHandler:` with an event name.
    case event(String)
    /// `updateRevenue:andCurrency:isAdMonetization:` (sends nothing by itself).
    case revenue(amount: Double, currency: String, admon: Bool)
    /// The simulated clock moves on by this many seconds.
    case advance(seconds: Int64)

    /// The step's name in the output.
    public var action: String {
        switch self {
        case .register: return "register"
        case .session: return "session"
        case .event: return "event"
        case .revenue: return "revenue"
        case .advance: return "advance"
        }
    }
}
