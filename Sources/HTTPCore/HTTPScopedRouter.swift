/// Routes by method and path, handing each handler a scope its caller makes per request (a
/// tenant, a user): one table registered once serves every scope, as Hummingbird's router hands
/// each request its own context. Literal paths are one dictionary lookup; patterns with `{name}`
/// segments (e.g. `/__admin/devices/{device}`) are tried in order after that. A known path with
/// another method gets `405` with `Allow`; an unknown path `404`; both bodies from `errorRenderer`.
public struct HTTPScopedRouter<Scope: Sendable>: Sendable {
    public typealias Handler = @Sendable (HTTPRequest, HTTPRouteParameters, Scope, HTTPResponseWriter) -> Void

    private var literal: [String: [HTTPMethod: Handler]] = [:]
    private var patterns: [(segments: [Segment], handlers: [HTTPMethod: Handler])] = []

    private enum Segment: Equatable {
        case literal(String)
        case parameter(String)
    }

    private let errorRenderer: HTTPErrorRenderer

    public init(errorRenderer: HTTPErrorRenderer = .plainText) {
        self.errorRenderer = errorRenderer
    }

    /// Registers `handler` for `method` on `path`. `GET` routes answer `HEAD` too, without the body.
    public mutating func on(_ method: HTTPMethod, _ path: String, handler: @escaping Handler) {
        let segments = Self.split(path).map { part -> Segment in
            part.hasPrefix("{") && part.hasSuffix("}")
                ? .parameter(String(part.dropFirst().dropLast())) : .literal(String(part))
        }
        if segments.allSatisfy({ if case .literal = $0 { true } else { false } }) {
            literal[path, default: [:]][method] = handler
        } else if let index = patterns.firstIndex(where: { $0.segments == segments }) {
            patterns[index].handlers[method] = handler
        } else {
            patterns.append((segments, [method: handler]))
        }
    }

    /// Answers `request` with its route's handler, given `scope`.
    public func respond(to request: HTTPRequest, scope: Scope, writer: HTTPResponseWriter) {
        let path = String(request.path)
        var parameters = HTTPRouteParameters()
        guard let handlers = literal[path] ?? match(path, into: &parameters) else {
            writer.send(errorRenderer.response(.notFound, reason: "no route for \(request.method) \(path)"))
            return
        }
        if let handler = handlers[request.method] ?? (request.method == .head ? handlers[.get] : nil) {
            handler(request, parameters, scope, writer)
            return
        }
        var allowed = Set(handlers.keys.map(\.rawValue))
        if allowed.contains("GET") { allowed.insert("HEAD") }
        var response = errorRenderer.response(
            .methodNotAllowed, reason: "method \(request.method) not allowed on \(path)")
        response.headers.set("Allow", allowed.sorted().joined(separator: ", "))
        writer.send(response)
    }

    /// Whether a route is registered for `path`, whatever its method.
    public func handles(_ path: Substring) -> Bool {
        var parameters = HTTPRouteParameters()
        return literal[String(path)] != nil || match(String(path), into: &parameters) != nil
    }

    private func match(_ path: String, into parameters: inout HTTPRouteParameters) -> [HTTPMethod: Handler]? {
        let parts = Self.split(path)
        candidates: for pattern in patterns where pattern.segments.count == parts.count {
            var found = HTTPRouteParameters()
            for (segment, part) in zip(pattern.segments, parts) {
                switch segment {
                case .literal(let text): if text != part { continue candidates }
                case .parameter(let name):
                    guard !part.isEmpty else { continue candidates }
                    found.values[name] = FormURLEncoding.percentDecode(part, plusAsSpace: false)
                }
            }
            parameters = found
            return pattern.handlers
        }
        return nil
    }

    private static func split(_ path: String) -> [Substring] {
        path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map { $0 }
    }
}

/// Values captured by `{name}` segments, percent-decoded.
public struct HTTPRouteParameters: Sendable {
    public var values: [String: String] = [:]

    public init() {}

    public subscript(name: String) -> String? { values[name] }
}
