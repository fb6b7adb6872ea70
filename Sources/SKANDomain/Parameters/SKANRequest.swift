/// A request to one of the Singular-compatible endpoints, as the HTTP layer saw it. Parameters are
/// already percent-decoded, query first and then form body, in arrival order (repeats kept).
public struct SKANRequest: Sendable {
    public var method: String
    public var path: String
    /// "address:port" of the client.
    public var remote: String
    public var parameters: RequestParameters

    public init(method: String = "GET", path: String, remote: String = "", parameters: RequestParameters) {
        self.method = method
        self.path = path
        self.remote = remote
        self.parameters = parameters
    }

    public init(method: String = "GET", path: String, remote: String = "", parameters: [(name: String, value: String)])
    {
        self.init(method: method, path: path, remote: remote, parameters: RequestParameters(parameters))
    }
}
