/// One request the simulated device (or its back end, for S2S) sent, and the answer it got.
public struct SimulationExchange: Sendable, Equatable {
    public enum Endpoint: String, Sendable {
        case conversionValue = "skan4"
        case launch
        case event
    }

    public var endpoint: Endpoint
    /// The path (without the URL's base path) and the query as sent, percent-encoded.
    public var target: String
    /// The same query, decoded, in the order sent.
    public var parameters: [(String, String)]
    public var status: Int
    public var body: String

    public init(endpoint: Endpoint, target: String, parameters: [(String, String)], status: Int, body: String) {
        self.endpoint = endpoint
        self.target = target
        self.parameters = parameters
        self.status = status
        self.body = body
    }

    public static func == (a: SimulationExchange, b: SimulationExchange) -> Bool {
        a.endpoint == b.endpoint && a.target == b.target && a.status == b.status && a.body == b.body
            && a.parameters.elementsEqual(b.parameters, by: { $0 == $1 })
    }
}
