/// The identity the simulated app puts in every request (`prepareQueryParams`); the defaults are
/// placeholders like the snippet's own ("YOUR API KEY").
public struct SimulatedApp: Sendable, Equatable {
    public var apiKey = "API_KEY"
    public var bundle = "com.example.app"
    public var version = "1.0"
    public var osVersion = "17.4"
    /// What iOS gives without App Tracking Transparency consent.
    public var idfa = "00000000-0000-0000-0000-000000000000"

    public init() {}
}
