import HTTPCore
import SKANDomain

/// Which path serves which endpoint: Singular's own paths, plus the aliases of `--route`, for apps
/// that reach Singular through their own back end's path shape. One dictionary lookup per request.
struct SingularRoutes: Sendable {
    /// What a path serves: an endpoint, and the parameters an alias adds.
    struct Route: Sendable {
        let endpoint: SKANEndpoint
        let added: [RouteAlias.Parameter]
    }

    private let table: [String: Route]
    /// "/api/v1/conversion_value, ..." for the 404 answer.
    let listing: String

    /// Aliases are expected free of conflicts (`RouteAlias.conflict(in:)`); were one to take a
    /// path of Singular's own, Singular's endpoint would keep it.
    init(aliases: [RouteAlias] = []) {
        var table: [String: Route] = [:]
        for alias in aliases { table[alias.path] = Route(endpoint: alias.endpoint, added: alias.parameters) }
        for endpoint in SKANEndpoint.served { table[endpoint.path] = Route(endpoint: endpoint, added: []) }
        self.table = table
        listing = table.keys.sorted().joined(separator: ", ")
    }

    func route(at path: String) -> Route? { table[path] }
}
