import HTTPCore
import SKANDomain

/// One concept's routes of the admin API (the journal, devices, the clock, faults, the model, the
/// report, health), registered under the `/__admin` group, each collection in a file of its own.
/// Hummingbird's `RouteCollection` is the model.
protocol AdminRouteCollection: Sendable {
    func register(on group: inout AdminRouteGroup)
}

/// Routes under `/__admin`: the prefix is written once, here.
struct AdminRouteGroup {
    static let prefix = "/__admin"

    private(set) var router: HTTPRouter

    /// Registers `handler` for `method` on `/__admin` + `path`.
    mutating func on(_ method: HTTPMethod, _ path: String, handler: @escaping HTTPRouter.Handler) {
        router.on(method, Self.prefix + path, handler: handler)
    }

    /// Registers every collection on `router` under `/__admin`.
    static func register(_ collections: [any AdminRouteCollection], on router: inout HTTPRouter) {
        var group = AdminRouteGroup(router: router)
        for collection in collections { collection.register(on: &group) }
        router = group.router
    }

    /// The admin API's collections, in the order the README lists them.
    static func collections(_ context: AppContext) -> [any AdminRouteCollection] {
        [
            HealthRoutes(context: context), JournalRoutes(context: context), ReportRoutes(context: context),
            DeviceRoutes(context: context), ModelRoutes(context: context), FaultRoutes(context: context),
            ClockRoutes(context: context), ResetRoute(context: context)
        ]
    }
}

/// How the admin API answers: JSON from `JSONValue`s through the JSON writer, never spliced.
enum AdminResponse {
    static let ok = json(["status": "ok"])

    static func json(_ value: JSONValue, status: HTTPStatus = .ok) -> HTTPResponse {
        .json(JSONWriter.serialize(value), status: status)
    }

    /// A 400 listing every problem of a rejected model or fault list.
    static func problems(_ error: ModelError) -> HTTPResponse {
        let problems = error.problems.map {
            JSONValue.object([JSONMember("path", .string($0.path)), JSONMember("reason", .string($0.reason))])
        }
        return json(
            ["status": "error", "reason": .string(error.description), "problems": .array(problems)], status: .badRequest
        )
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
