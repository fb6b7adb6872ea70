import HTTPCore

/// Makes a tenant's side of the server (`TenantSite`) from its context: the same admin routes
/// behind the same guard and token, the same Singular routes and aliases, for the default tenant
/// at start-up and for each named one when its first request comes.
struct TenantSiteBuilder: Sendable {
    let guardian: AdminGuard
    /// `--admin-token`.
    let token: String?
    let phone: PhoneRoutes
    let routes: SingularRoutes

    /// `tenants`: the root's only, which lists them and says their bound in its health.
    func site(_ context: AppContext, tenants: TenantRegistry? = nil) -> TenantSite {
        var admin = AdminRouteGroup(guardian: guardian, token: token)
        admin.register(AdminRouteGroup.collections(context, phone: phone, tenants: tenants))
        return TenantSite(
            tenant: context.tenant, admin: admin, singular: SingularEndpoints(context: context, routes: routes),
            postbacks: PostbackReceiver(context: context))
    }
}
