import HTTPCore
import SKANDomain
import SKANFiles
import SystemPOSIX

/// The last stage of start-up: what answers (the admin guard and routes, the responder over every
/// tenant) and the listeners over it, plain HTTP and HTTPS when it is on, with connections fitted
/// to the open-file limit. Nothing is bound until the server starts them as lifecycle parts.
struct ServerListeners: Sendable {
    let http: HTTPServer
    let https: HTTPServer?
    let responder: AppResponder
    /// The admin API, the console and the phone set-up: one router for every tenant.
    let admin: AdminRouteGroup
    let guardian: AdminGuard
    /// Fewer connections than asked for, because the open-file limit could not be raised.
    let budgetNotice: String?

    init(
        _ options: CheckedOptions, files: StartupFiles, components: ServerComponents, site: TenantSite,
        tenants: TenantRegistry, registrations: AdminRouteGroup.RouteRegistrations
    ) {
        var limits = options.limits
        let budget = DescriptorBudget.fit(
            maxConnections: limits.maxConnections, listeners: options.https == nil ? 1 : 2,
            processors: System.processorCount())
        limits.maxConnections = budget.maxConnections
        budgetNotice = budget.notice
        guardian = AdminGuard(
            listenHost: options.host, hasToken: !(options.adminToken ?? "").isEmpty, adminOpen: options.adminOpen,
            hosts: AdminHostCheck(
                listenHost: options.host, allowedHosts: options.allowedHosts, tlsNames: options.https?.extraNames ?? [])
        )
        // The admin routes, registered once for the default tenant and every named one.
        var admin = AdminRouteGroup(guardian: guardian, token: options.adminToken, registrations: registrations)
        let phone = PhoneRoutes(https: files.https, ports: components.ports, listeningHost: options.host)
        admin.register(AdminRouteGroup.collections(components, phone: phone, tenants: tenants))
        self.admin = admin
        responder = AppResponder(site: site, tenants: tenants, admin: admin)
        (http, https) = Self.listeners(
            options, limits: limits, https: files.https, responder: responder, metrics: components.metrics)
    }

    /// The listeners over `responder`. The server's own refusals of requests for an endpoint are
    /// journaled too; HTTPS fails closed: a connection whose TLS session cannot be made is closed,
    /// counted and said (once per reason), never served as plain HTTP.
    private static func listeners(
        _ options: CheckedOptions, limits: HTTPLimits, https: HTTPSService?, responder: AppResponder,
        metrics: ServerMetrics
    ) -> (http: HTTPServer, https: HTTPServer?) {
        var plain = HTTPServer.Configuration(
            host: options.host, port: options.port, limits: limits, errorRenderer: .singular)
        plain.refusalObserver = { responder.journal($0) }
        plain.setupFailureObserver = unserved("a connection", metrics)
        guard let httpsOptions = options.https, let https else {
            return (HTTPServer(configuration: plain, responder: responder), nil)
        }
        var secure = HTTPServer.Configuration(
            host: options.host, port: httpsOptions.port, limits: limits, errorRenderer: .singular,
            security: https.security)
        secure.refusalObserver = { responder.journal($0) }
        secure.setupFailureObserver = unserved("an HTTPS connection", metrics)
        return (
            HTTPServer(configuration: plain, responder: responder),
            HTTPServer(configuration: secure, responder: responder)
        )
    }

    /// What a listener does with a connection closed before it was served (a TLS session that
    /// could not be made, say): counts it, and says each reason once.
    private static func unserved(_ what: String, _ metrics: ServerMetrics) -> @Sendable (String, Bool) -> Void {
        { reason, isNew in
            metrics.recordUnserved(reason: reason)
            if isNew {
                StandardStreams.error(
                    "skan-mock: \(what) was closed before it was served: \(reason) (counted in skan_mock_connections_unserved_total; said once per reason)"
                )
            }
        }
    }
}
