import SKANDomain

extension TenantRegistry {
    /// The stage after the running parts: the named tenants (`/t/NAME`), made on first use. A
    /// tenant starts with the server's model as it is then, the start-up clock offset and no
    /// device; one dropped leaves nothing behind, in the journal's view or the replay's either.
    static func factory(
        _ options: CheckedOptions, defaultService: ConversionService, clock: any SKANClock,
        components: ServerComponents, routes: SingularRoutes, replay: Replay?
    ) -> TenantRegistry {
        TenantRegistry(
            capacity: options.maxTenants, deviceBounds: Tenant.deviceBounds(options.values), clock: clock,
            make: { name in
                let tenant = Tenant.fresh(
                    named: name, model: defaultService.model, baseClock: clock, options: options.values)
                return TenantSite(tenant: tenant, server: components, routes: routes)
            },
            dropped: { [journal = components.journal] site in
                journal.clear(devices: true, tenant: site.tenant.name, forget: true)
                replay?.rewind(tenant: site.tenant.name)
            })
    }
}
