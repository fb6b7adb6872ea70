import SKANDomain

extension SKANMockServer {
    /// Where a tenant of an in-process server answers.
    public struct TenantAddress: Sendable, Equatable {
        public let name: String
        /// `http://HOST:PORT/t/NAME`: the admin API's base URL (`SKANMockClient(baseURL:)`) and a
        /// back end's Singular base URL.
        public let baseURL: String
        /// What to give the app as `SINGULAR_API_URL`.
        public let singularAPIURL: String
    }

    /// A fresh tenant for one test, in one line: a new random name unless `name` is given (it must
    /// follow `TenantName.rule`). Read its journal with
    /// `journal.query(JournalFilter(tenant: .only(address.name)))`.
    public func makeTenant(named name: String? = nil) -> TenantAddress {
        let name = name ?? "test-\(String(UInt64.random(in: 1...UInt64.max), radix: 36))"
        precondition(TenantName.isValid(name.utf8), "\(name): \(TenantName.rule)")
        _ = tenants.site(name, request: false)
        let base = url + AppResponder.tenantPrefix + name
        return TenantAddress(name: name, baseURL: base, singularAPIURL: base + "/api/v2/conversion_value")
    }

    /// How many named tenants the server holds.
    public var tenantCount: Int { tenants.count }
}
