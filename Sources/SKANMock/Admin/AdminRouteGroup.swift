import HTTPCore
import SKANDomain
import SystemPOSIX

/// One concept's routes of the admin API (the journal, devices, the clock, faults, the model, the
/// report, health), registered under the `/__admin` group, each collection in a file of its own.
/// Hummingbird's `RouteCollection` is the model.
protocol AdminRouteCollection: Sendable {
    func register(on group: inout AdminRouteGroup)
}

/// The admin side of the server, one door for every route of it: the admin API under `/__admin`,
/// the console and the phone set-up. Each request passes the `AdminGuard` (DNS rebinding, other
/// origins, other machines), then the token when one is set, unless its route was registered as
/// open (the console's pages and the phone set-up, which reveal nothing a token protects). Routes
/// are registered through the group, so none can skip either check. Registered once for the whole
/// server: each request brings its tenant's scope (`TenantScope`), which the handlers receive.
struct AdminRouteGroup: Sendable {
    /// A route's handler: the request, its `{name}` values, its tenant's scope, the writer.
    typealias Handler = HTTPScopedRouter<TenantScope>.Handler

    static let prefix = "/__admin"

    /// Paths outside `/__admin` that the console serves.
    static let pages: Set<Substring> = ["/", "/favicon.ico"]

    /// Who may call a route.
    enum Access {
        /// Behind the token, when one is set.
        case token
        /// Without the token: the console's page and assets, the phone set-up.
        case open
    }

    private var router = HTTPScopedRouter<TenantScope>(errorRenderer: .singular)
    /// The open routes again, only to tell whether a request is for one.
    private var openRoutes = HTTPScopedRouter<TenantScope>()
    let guardian: AdminGuard
    let authorization: AdminAuthorization?
    /// Every route registered, in order: what the OpenAPI document is held to (`OpenAPIDocumentTests`).
    private(set) var registered: [(method: HTTPMethod, path: String, access: Access)] = []
    /// The server's count of the routes registered through every group it makes (each group is
    /// given it): once at start-up, however many tenants come (issue 46: each tenant was a copy of
    /// the whole admin site).
    let registrations: RouteRegistrations

    /// `token`: `--admin-token`; nil or empty means none.
    init(guardian: AdminGuard, token: String?, registrations: RouteRegistrations) {
        self.guardian = guardian
        self.registrations = registrations
        authorization = token.flatMap { $0.isEmpty ? nil : AdminAuthorization(token: $0) }
    }

    /// How many routes were registered, whatever the group.
    final class RouteRegistrations: Sendable {
        private let count = Atomic<Int>(0)
        init() {}
        func add() { _ = count.add(1, ordering: .relaxed) }
        var total: Int { count.load(ordering: .relaxed) }
    }

    /// Registers `handler` for `method` on `/__admin` + `path`.
    mutating func on(
        _ method: HTTPMethod, _ path: String, access: Access = .token, handler: @escaping Handler
    ) {
        add(method, Self.prefix + path, access, handler)
    }

    /// Registers one of the console's `pages` (open, outside `/__admin`).
    mutating func page(_ path: Substring, handler: @escaping Handler) {
        precondition(Self.pages.contains(path), "\(path) is not one of the console's pages")
        add(.get, String(path), .open, handler)
    }

    private mutating func add(
        _ method: HTTPMethod, _ path: String, _ access: Access, _ handler: @escaping Handler
    ) {
        router.on(method, path, handler: handler)
        registered.append((method, path, access))
        registrations.add()
        if access == .open { openRoutes.on(method, path, handler: handler) }
    }

    /// Registers every collection.
    mutating func register(_ collections: [any AdminRouteCollection]) {
        for collection in collections { collection.register(on: &self) }
    }

    /// `request`'s path is without any `/t/NAME`; `scope` is that tenant's.
    func respond(to request: HTTPRequest, scope: TenantScope, writer: HTTPResponseWriter) {
        if let refusal = refusal(for: request) {
            writer.send(refusal)
            return
        }
        router.respond(to: request, scope: scope, writer: writer)
    }

    /// What the guard or the token says to `request` (its path without any `/t/NAME`), or nil
    /// when it may go on. Asked before a tenant is made for an admin path too, so a refused
    /// request makes no tenant and drops none (issue 46, G2).
    func refusal(for request: HTTPRequest) -> HTTPResponse? {
        if let refusal = guardian.refusal(for: request) { return refusal }
        if let authorization, !openRoutes.handles(request.path), !authorization.admits(request) {
            return AdminAuthorization.refusal
        }
        return nil
    }

    /// The admin side's paths, never journaled: `/__admin` and under it, and the console's pages.
    /// Compared as bytes, on every request: a Singular path differs at its second byte, where
    /// `hasPrefix` on a Substring walked characters and the set hashed the whole path.
    static func isAdmin(_ path: Substring) -> Bool {
        let bytes = path.utf8
        if bytes.starts(with: prefix.utf8) {
            let rest = bytes.dropFirst(prefix.utf8.count)
            return rest.isEmpty || rest.first == UInt8(ascii: "/")
        }
        // The lengths first: a Singular path is never as short as a page, and comparing it byte
        // by byte with each page cost every request some 400 instructions.
        let count = bytes.count
        return pages.contains { $0.utf8.count == count && bytes.elementsEqual($0.utf8) }
    }

    /// The admin API's collections, in the order the README lists them, then the console's and the
    /// tenants' list. Each holds only what is server-wide; a tenant's state comes with each request.
    static func collections(_ server: ServerComponents, phone: PhoneRoutes, tenants: TenantRegistry)
        -> [any AdminRouteCollection]
    {
        [
            HealthRoutes(server: server, tenants: tenants), JournalRoutes(timer: server.timer),
            ReportRoutes(server: server),
            DeviceRoutes(server: server), ReceivedPostbackRoutes(server: server), ModelRoutes(), FaultRoutes(),
            ClockRoutes(), ResetRoute(server: server), ConsoleRoutes(), EventsRoute(server: server),
            phone, TenantRoutes(tenants: tenants)
        ]
    }
}

/// How the admin API answers: JSON from `JSONValue`s through the JSON writer, never spliced.
enum AdminResponse {
    static let ok = json(["status": "ok"])

    static func json(_ value: JSONValue, status: HTTPStatus = .ok) -> HTTPResponse {
        .json(JSONWriter.serialize(value), status: status)
    }

    /// A 400 listing every problem of a rejected model or fault list: the error body every other
    /// refusal has, with `problems` added.
    static func problems(_ error: ModelError) -> HTTPResponse {
        .json(
            SKANResponse.error(error.description, problems: error.problems.map { ($0.path, $0.reason) }),
            status: .badRequest)
    }

    /// `body`'s answer for the request's journal filter, or the 400 that names what is wrong with it.
    static func withFilter(_ request: HTTPRequest, _ body: (JournalFilter) -> HTTPResponse) -> HTTPResponse {
        do {
            return body(try JournalFilter(query: FormURLEncoding.pairs(request.query)))
        } catch {
            return .jsonError(error.reason, status: .badRequest)
        }
    }
}
