import HTTPCore
import SKANDomain

/// Which path serves which endpoint: Singular's own paths, plus the aliases of `--route`, for apps
/// that reach Singular through their own back end's path shape. One dictionary lookup per request.
struct SingularRoutes: Sendable {
    private let table: [String: SKANEndpoint]
    /// "/api/v1/conversion_value, ..." for the 404 answer.
    let listing: String

    init(aliases: [RouteAlias] = []) {
        var table: [String: SKANEndpoint] = [:]
        for endpoint in SKANEndpoint.served { table[endpoint.path] = endpoint }
        for alias in aliases { table[alias.path] = alias.endpoint }
        self.table = table
        listing = table.keys.sorted().joined(separator: ", ")
    }

    func endpoint(at path: String) -> SKANEndpoint? { table[path] }
}

/// `--route PATH=ENDPOINT`: one more path that serves an endpoint (`skan3`, `skan4`, `launch`,
/// `evt`, `launch2`, `evt2`). Journal entries keep the path as sent.
public struct RouteAlias: Sendable, Equatable {
    public var path: String
    public var endpoint: SKANEndpoint

    public init(path: String, endpoint: SKANEndpoint) {
        self.path = path
        self.endpoint = endpoint
    }

    /// Why a `--route` value cannot be used.
    public struct ParseError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Parses `PATH=ENDPOINT`.
    public init(parsing text: String) throws(ParseError) {
        guard let equals = text.lastIndex(of: "=") else {
            throw ParseError(description: "--route \(text): expected PATH=ENDPOINT, e.g. /v2/attribution/conversion-value=skan4")
        }
        let path = String(text[..<equals])
        let name = String(text[text.index(after: equals)...])
        guard path.hasPrefix("/"), !path.contains("?"), !path.contains(" ") else {
            throw ParseError(description: "--route \(text): the path must start with / and have no query")
        }
        guard path != "/__admin" && !path.hasPrefix("/__admin/") else {
            throw ParseError(description: "--route \(text): /__admin is the admin API's")
        }
        guard let endpoint = SKANEndpoint(routeName: name) else {
            throw ParseError(description: "--route \(text): unknown endpoint \(name); use skan3, skan4, launch, evt, launch2 or evt2")
        }
        self.init(path: path, endpoint: endpoint)
    }

    /// `SKAN_MOCK_ROUTES`: a comma-separated list of `PATH=ENDPOINT`.
    public static func parseList(_ text: String) throws(ParseError) -> [RouteAlias] {
        var aliases: [RouteAlias] = []
        for item in text.split(separator: ",") {
            let trimmed = item.trimmingASCIIWhitespace()
            if !trimmed.isEmpty { aliases.append(try RouteAlias(parsing: String(trimmed))) }
        }
        return aliases
    }
}
