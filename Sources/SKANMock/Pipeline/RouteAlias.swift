import HTTPCore
import SKANDomain

/// `--route PATH=ENDPOINT[?NAME=VALUE&...]`: one more path that serves an endpoint (`skan3`, `skan4`,
/// `launch`, `evt`, `launch2`, `evt2`), standing in for an app's own back end that forwards to
/// Singular. Such a back end usually adds what the app does not send (the SDK key `a`, often `p`
/// and `i`) or renames what it does (its device id as `sing`): the query after the endpoint lists
/// those parameters, fixed (`a=KEY`) or copied from another (`idfv={sing}`), added to every request
/// that does not send them itself. Journal entries keep the path as sent.
public struct RouteAlias: Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var endpoint: SKANEndpoint
    /// Fixed parameters the alias adds when the client did not send them, in order.
    public var parameters: [Parameter]

    /// A parameter the alias adds: a fixed value (`a=KEY`), or another parameter's value copied
    /// under this name (`idfv={sing}`: a back end that names the device id its own way).
    public struct Parameter: Sendable, Equatable {
        public var name: String
        /// The fixed value; empty when copied.
        public var value: String
        /// The parameter whose value is copied, or nil for a fixed value.
        public var copiedFrom: String?

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }

        public init(name: String, copiedFrom source: String) {
            self.name = name
            value = ""
            copiedFrom = source
        }

        /// As written after the alias's `?`.
        var written: String { "\(name)=" + (copiedFrom.map { "{\($0)}" } ?? value) }

        /// The parameter with its value for a request with `parameters`: a fixed one as it is, a
        /// copied one with the source's value, or nil when the request did not send the source.
        func resolved(in parameters: RequestParameters) -> Parameter? {
            guard let source = copiedFrom else { return self }
            return parameters[source].map { Parameter(name: name, value: $0) }
        }
    }

    public init(path: String, endpoint: SKANEndpoint, parameters: [Parameter] = []) {
        self.path = path
        self.endpoint = endpoint
        self.parameters = parameters
    }

    /// Why a `--route` value cannot be used: the alias as given, why, and where it came from.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        public var alias: String
        public var reason: String
        /// `--route`, or the variable the alias came from (`SKAN_MOCK_ROUTES`).
        public var source = "--route"

        public init(alias: String, reason: String, source: String = "--route") {
            self.alias = alias
            self.reason = reason
            self.source = source
        }

        public var description: String {
            source == "--route" ? "--route \(alias): \(reason)" : "\(source): \(alias): \(reason)"
        }
    }

    /// The alias as `--route` takes it.
    public var description: String {
        let query = parameters.map(\.written).joined(separator: "&")
        return "\(path)=\(endpoint.routeName)" + (query.isEmpty ? "" : "?" + query)
    }

    /// Parses `PATH=ENDPOINT` with an optional `?NAME=VALUE&...` (percent-encoded as in a URL).
    public init(parsing text: String) throws(ParseError) {
        guard let equals = text.firstIndex(of: "=") else {
            throw ParseError(
                alias: text,
                reason: "expected PATH=ENDPOINT, e.g. /v2/attribution/conversion-value=skan4?a=YOUR_SDK_KEY"
            )
        }
        let path = String(text[..<equals])
        var target = Substring(text[text.index(after: equals)...])
        var query: Substring = ""
        if let mark = target.firstIndex(of: "?") {
            query = target[target.index(after: mark)...]
            target = target[..<mark]
        }
        guard path.hasPrefix("/"), !path.contains("?") else {
            throw ParseError(alias: text, reason: "the path must start with / and have no query")
        }
        if let reason = Self.unreachable(path) {
            // A path of thousands of bytes is named by its start: the line stays one to read.
            let shown = text.utf8.count > 80 ? String(text.prefix(40)) + "..." : text
            throw ParseError(alias: shown, reason: reason)
        }
        guard let endpoint = SKANEndpoint(routeName: String(target)) else {
            throw ParseError(
                alias: text, reason: "unknown endpoint \(target); use skan3, skan4, launch, evt, launch2 or evt2")
        }
        if let escape = URICharacters.badEscape(query) {
            throw ParseError(
                alias: text,
                reason: "\(escape) is not a percent-escape (% and two hex digits); write a literal % as %25"
            )
        }
        self.init(path: path, endpoint: endpoint, parameters: try Self.added(query, alias: text))
    }

    /// The parameters `?NAME=VALUE&NAME={SOURCE}` adds, each named once, or why not.
    private static func added(_ query: Substring, alias text: String) throws(ParseError) -> [Parameter] {
        var parameters: [Parameter] = []
        for pair in FormURLEncoding.pairs(query) {
            guard !pair.name.isEmpty, !pair.value.isEmpty else {
                throw ParseError(alias: text, reason: "each added parameter needs a name and a value (NAME=VALUE)")
            }
            if let earlier = parameters.first(where: { $0.name == pair.name }) {
                throw ParseError(
                    alias: text,
                    reason:
                        "\(pair.name) is given twice (\(earlier.value) and \(pair.value)); give each added parameter once"
                )
            }
            if pair.value.hasPrefix("{") || pair.value.hasSuffix("}") {
                let source = pair.value.dropFirst().dropLast()
                guard pair.value.count > 2, pair.value.hasPrefix("{"), pair.value.hasSuffix("}"),
                    !source.contains(where: { "{}&=".contains($0) })
                else {
                    throw ParseError(
                        alias: text,
                        reason:
                            "\(pair.name)=\(pair.value): a copied parameter is written NAME={SOURCE}, e.g. idfv={sing} to send the value of sing as idfv"
                    )
                }
                parameters.append(Parameter(name: pair.name, copiedFrom: String(source)))
            } else {
                parameters.append(Parameter(name: pair.name, value: pair.value))
            }
        }
        return parameters
    }

    /// Why no request could ever reach `path` as an alias, or nil. The server's own pages take
    /// theirs first, and a path is compared as clients send it, percent-encoded and normalised: a
    /// path too long for a request line, a dot segment (`/a/../b`, which clients resolve before
    /// sending), a character they always encode (a space, a non-ASCII letter), an escape they never
    /// write (`%41` for `A`), or one in lower case (clients write `%C3%A9`) would never match.
    static func unreachable(_ path: String) -> String? {
        if path.utf8.count > Self.maxPathBytes {
            return
                "the path is \(path.utf8.count) bytes, over the \(Self.maxPathBytes) an alias may have (a request to it, with its query and a tenant's /t/NAME, must fit the server's \(HTTPLimits().maxRequestLineBytes >> 10) KiB request line); pick a shorter path"
        }
        if let dot = path.split(separator: "/", omittingEmptySubsequences: false).first(where: {
            $0 == "." || $0 == ".."
        }) {
            return
                "the path holds the segment \"\(dot)\", which clients remove before they send (RFC 3986 5.2.4: /a/../b is sent as /b, /a/./b as /a/b); write the path they send"
        }
        if path == "/__admin" || path.hasPrefix("/__admin/") {
            return "\(path) is under /__admin, the admin API's own prefix, which no alias may take; pick another path"
        }
        if AppResponder.isAdmin(Substring(path)) {
            return "\(path) is the console's own page, which keeps answering as itself; pick another path"
        }
        if path.hasPrefix(AppResponder.tenantPrefix) {
            return
                "\(path) is under /t/, the tenants' prefix (every alias is served under /t/NAME too), which no alias may take; pick another path"
        }
        if let scalar = path.unicodeScalars.first(where: { !URICharacters.isPathCharacter($0) && $0 != "%" }) {
            let shown = scalar == " " ? "a space" : "\"\(scalar)\""
            return
                "the path holds \(shown), which clients send percent-encoded; write the path as they send it (e.g. %20 for a space, %C3%A9 for é)"
        }
        let bytes = Array(path.utf8)
        var index = 0
        while index < bytes.count {
            defer { index += 1 }
            guard bytes[index] == UInt8(ascii: "%") else { continue }
            let escape = String(decoding: bytes[index..<min(index + 3, bytes.count)], as: UTF8.self)
            guard index + 2 < bytes.count, let value = UInt8(escape.dropFirst(), radix: 16) else {
                return "\(escape) is not a percent-escape (% and two hex digits); write a literal % as %25"
            }
            if escape != escape.uppercased() {
                return "\(escape) is in lower case; clients send \(escape.uppercased()), which would not match"
            }
            let scalar = Unicode.Scalar(value)
            if value < 0x80 && URICharacters.isPathCharacter(scalar) && scalar != "/" {
                return "\(escape) is \"\(scalar)\", which clients send as is; write \(scalar) instead"
            }
            index += 2
        }
        return nil
    }

    /// Longest alias path: a quarter of the request line, so that a request to it under a tenant's
    /// `/t/NAME`, with a query of Singular's parameters, still fits (longer gets `414`).
    public static var maxPathBytes: Int { HTTPLimits().maxRequestLineBytes / 4 }

    /// `SKAN_MOCK_ROUTES`: a comma-separated list of aliases; an error names the variable.
    public static func parseList(_ text: String, source: String = "SKAN_MOCK_ROUTES") throws(ParseError)
        -> [RouteAlias]
    {
        var aliases: [RouteAlias] = []
        for item in text.split(separator: ",") {
            let trimmed = item.trimmingASCIIWhitespace()
            guard !trimmed.isEmpty else { continue }
            // `/a=skan4?a=K,p=iOS`: the comma separates aliases, so `p=iOS` came out as one.
            if !trimmed.hasPrefix("/"), trimmed.contains("="), !aliases.isEmpty || text.hasPrefix("/") {
                throw ParseError(
                    alias: String(trimmed),
                    reason:
                        "not an alias (PATH=ENDPOINT): commas separate aliases, so join one alias's parameters with & (/a=skan4?a=KEY&p=iOS)",
                    source: source)
            }
            do {
                aliases.append(try RouteAlias(parsing: String(trimmed)))
            } catch {
                throw ParseError(alias: error.alias, reason: error.reason, source: source)
            }
        }
        return aliases
    }

    /// The first conflict among `aliases`, in one line: an alias on a path of Singular's own
    /// (which keeps answering as itself), or two aliases that claim one path differently.
    /// `source` names where the aliases came from: `--route`, or `SKAN_MOCK_ROUTES`.
    public static func conflict(in aliases: [RouteAlias], source: String = "--route") -> String? {
        var claimed: [String: RouteAlias] = [:]
        let name = source == "--route" ? "--route " : source + ": "
        for alias in aliases {
            if let own = SKANEndpoint(path: alias.path) {
                return
                    "\(name)\(alias): \(alias.path) is Singular's own path for \(own.routeName), which keeps answering as itself; pick another path"
            }
            if let earlier = claimed[alias.path] {
                if earlier == alias { continue }
                return source == "--route"
                    ? "--route \(earlier) and --route \(alias) both claim \(alias.path); keep one"
                    : "\(source): \(earlier) and \(alias) both claim \(alias.path); keep one"
            }
            claimed[alias.path] = alias
        }
        return nil
    }
}

extension RequestParameters {
    /// Adds what `alias` adds where the request did not send it (the client's own value wins);
    /// the parameters added, with their values.
    mutating func add(_ alias: [RouteAlias.Parameter]) -> [RouteAlias.Parameter] {
        var added: [RouteAlias.Parameter] = []
        for parameter in alias {
            guard let resolved = parameter.resolved(in: self),
                addIfAbsent(name: resolved.name, value: resolved.value)
            else { continue }
            added.append(resolved)
        }
        return added
    }
}
