import HTTPCore
import SKANDomain

/// `--route PATH=ENDPOINT[?NAME=VALUE&...]`: one more path that serves an endpoint (`skan3`, `skan4`,
/// `launch`, `evt`, `launch2`, `evt2`), standing in for an app's own back end that forwards to
/// Singular. Such a back end usually adds what the app does not send (the SDK key `a`, often `p`
/// and `i`): the query after the endpoint lists those fixed parameters, added to every request
/// that does not send them itself. Journal entries keep the path as sent.
public struct RouteAlias: Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var endpoint: SKANEndpoint
    /// Fixed parameters the alias adds when the client did not send them, in order.
    public var parameters: [Parameter]

    public struct Parameter: Sendable, Equatable {
        public var name: String
        public var value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    public init(path: String, endpoint: SKANEndpoint, parameters: [Parameter] = []) {
        self.path = path
        self.endpoint = endpoint
        self.parameters = parameters
    }

    /// Why a `--route` value cannot be used.
    public struct ParseError: Error, CustomStringConvertible {
        public let description: String
    }

    /// The alias as `--route` takes it.
    public var description: String {
        let query = parameters.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
        return "\(path)=\(endpoint.routeName)" + (query.isEmpty ? "" : "?" + query)
    }

    /// Parses `PATH=ENDPOINT` with an optional `?NAME=VALUE&...` (percent-encoded as in a URL).
    public init(parsing text: String) throws(ParseError) {
        guard let equals = text.firstIndex(of: "=") else {
            throw ParseError(
                description:
                    "--route \(text): expected PATH=ENDPOINT, e.g. /v2/attribution/conversion-value=skan4?a=YOUR_SDK_KEY"
            )
        }
        let path = String(text[..<equals])
        var target = Substring(text[text.index(after: equals)...])
        var query: Substring = ""
        if let mark = target.firstIndex(of: "?") {
            query = target[target.index(after: mark)...]
            target = target[..<mark]
        }
        guard path.hasPrefix("/"), !path.contains("?"), !path.contains(" ") else {
            throw ParseError(description: "--route \(text): the path must start with / and have no query")
        }
        guard path != "/__admin" && !path.hasPrefix("/__admin/") else {
            throw ParseError(description: "--route \(text): /__admin is the admin API's")
        }
        guard let endpoint = SKANEndpoint(routeName: String(target)) else {
            throw ParseError(
                description:
                    "--route \(text): unknown endpoint \(target); use skan3, skan4, launch, evt, launch2 or evt2")
        }
        var parameters: [Parameter] = []
        for pair in FormURLEncoding.pairs(query) {
            guard !pair.name.isEmpty, !pair.value.isEmpty else {
                throw ParseError(
                    description: "--route \(text): each added parameter needs a name and a value (NAME=VALUE)")
            }
            parameters.append(Parameter(name: pair.name, value: pair.value))
        }
        self.init(path: path, endpoint: endpoint, parameters: parameters)
    }

    /// `SKAN_MOCK_ROUTES`: a comma-separated list of aliases.
    public static func parseList(_ text: String) throws(ParseError) -> [RouteAlias] {
        var aliases: [RouteAlias] = []
        for item in text.split(separator: ",") {
            let trimmed = item.trimmingASCIIWhitespace()
            if !trimmed.isEmpty { aliases.append(try RouteAlias(parsing: String(trimmed))) }
        }
        return aliases
    }

    /// The first conflict among `aliases`, in one line: an alias on a path of Singular's own
    /// (which keeps answering as itself), or two aliases that claim one path differently.
    public static func conflict(in aliases: [RouteAlias]) -> String? {
        var claimed: [String: RouteAlias] = [:]
        for alias in aliases {
            if let own = SKANEndpoint(path: alias.path) {
                return
                    "--route \(alias): \(alias.path) is Singular's own path for \(own.routeName), which keeps answering as itself; pick another path"
            }
            if let earlier = claimed[alias.path] {
                if earlier == alias { continue }
                return "--route \(earlier) and --route \(alias) both claim \(alias.path); keep one"
            }
            claimed[alias.path] = alias
        }
        return nil
    }
}
