import HTTPCore
import SKANDomain

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
/// are registered through the group, so none can skip either check.
struct AdminRouteGroup: HTTPResponder {
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

    private var router = HTTPRouter(errorRenderer: .singular)
    /// The open routes again, only to tell whether a request is for one.
    private var openRoutes = HTTPRouter()
    let guardian: AdminGuard
    let authorization: AdminAuthorization?
    /// Every route registered, in order: what the OpenAPI document is held to (`OpenAPIDocumentTests`).
    private(set) var registered: [(method: HTTPMethod, path: String, access: Access)] = []

    /// `token`: `--admin-token`; nil or empty means none.
    init(guardian: AdminGuard, token: String?) {
        self.guardian = guardian
        authorization = token.flatMap { $0.isEmpty ? nil : AdminAuthorization(token: $0) }
    }

    /// Registers `handler` for `method` on `/__admin` + `path`.
    mutating func on(
        _ method: HTTPMethod, _ path: String, access: Access = .token, handler: @escaping HTTPRouter.Handler
    ) {
        add(method, Self.prefix + path, access, handler)
    }

    /// Registers one of the console's `pages` (open, outside `/__admin`).
    mutating func page(_ path: Substring, handler: @escaping HTTPRouter.Handler) {
        precondition(Self.pages.contains(path), "\(path) is not one of the console's pages")
        add(.get, String(path), .open, handler)
    }

    private mutating func add(
        _ method: HTTPMethod, _ path: String, _ access: Access, _ handler: @escaping HTTPRouter.Handler
    ) {
        router.on(method, path, handler: handler)
        registered.append((method, path, access))
        if access == .open { openRoutes.on(method, path, handler: handler) }
    }

    /// Registers every collection.
    mutating func register(_ collections: [any AdminRouteCollection]) {
        for collection in collections { collection.register(on: &self) }
    }

    func respond(to request: HTTPRequest, writer: HTTPResponseWriter) {
        if let refusal = refusal(for: request) {
            writer.send(refusal)
            return
        }
        router.respond(to: request, writer: writer)
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

    /// The admin API's collections, in the order the README lists them, then the console's; with
    /// `tenants` (the root's), the tenants' list too.
    static func collections(_ context: AppContext, phone: PhoneRoutes, tenants: TenantRegistry? = nil)
        -> [any AdminRouteCollection]
    {
        [
            HealthRoutes(context: context, tenants: tenants), JournalRoutes(context: context),
            ReportRoutes(context: context),
            DeviceRoutes(context: context), ReceivedPostbackRoutes(context: context), ModelRoutes(context: context),
            FaultRoutes(context: context),
            ClockRoutes(context: context), ResetRoute(context: context),
            ConsoleRoutes(tenantPrefix: context.tenant.name.map { AppResponder.tenantPrefix + $0 } ?? ""),
            EventsRoute(context: context), phone
        ] + (tenants.map { [TenantRoutes(tenants: $0, journal: context.journal)] } ?? [])
            + (tenants == nil ? context.tenant.name.map { [TenantRoutesAtTheRoot(tenant: $0)] } ?? [] : [])
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
