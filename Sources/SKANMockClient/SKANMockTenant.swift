import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A tenant of a shared skan-mock for one test: the whole server under `/t/NAME`, with its own
/// devices, journal view, model, faults and clock, so tests running in parallel on one server
/// (Xcode's parallel testing, CI jobs sharing a container) never see each other's. Nothing is sent
/// to make one: the server makes a tenant on its first request.
///
/// ```swift
/// let tenant = try SKANMockClient.makeTenant(baseURL: URL(string: "http://127.0.0.1:8080")!)
/// app.launchEnvironment["SINGULAR_API_URL"] = tenant.singularAPIURL.absoluteString
/// // ... drive the app; tenant.client reads this test's journal only ...
/// try await tenant.client.waitForRequests(count: 1)
/// ```
public struct SKANMockTenant: Sendable {
    public let name: String
    /// The admin API of this tenant (its base URL is the server's with `/t/NAME`).
    public let client: SKANMockClient
    /// What to give the app as `SINGULAR_API_URL`: the tenant's SKAN 4 endpoint.
    public let singularAPIURL: URL
    /// The server's own admin API, for what is server-wide (the tenants' list, dropping one).
    public let server: SKANMockClient

    /// The tenant's base URL (`http://HOST:PORT/t/NAME`): a back end's Singular base URL.
    public var baseURL: URL { client.baseURL }

    /// Drops the tenant on the server (`DELETE /__admin/tenants/NAME`): its devices, journal view
    /// and settings go. A tenant never used is not an error.
    public func drop() async throws {
        do {
            _ = try await server.call("DELETE", "/__admin/tenants/\(name)")
        } catch SKANMockClientError.unexpectedStatus(404, _) {
            return
        }
    }
}

extension SKANMockClient {
    /// A fresh tenant on the server at `baseURL`, in one line: a new random name (`test-` and a
    /// UUID) unless `name` is given, its admin client and the `SINGULAR_API_URL` for the app.
    public static func makeTenant(
        baseURL: URL, name: String? = nil, adminToken: String? = nil, session: URLSession = .shared
    ) throws -> SKANMockTenant {
        try SKANMockClient(baseURL: baseURL, adminToken: adminToken, session: session).tenant(
            name ?? "test-\(UUID().uuidString.lowercased())")
    }

    /// The tenant `name` of this client's server (this client's base URL being the server's root).
    public func tenant(_ name: String) throws -> SKANMockTenant {
        guard Self.isTenantName(name) else { throw SKANMockClientError.badTenantName(name) }
        let base = baseURL.appendingPathComponent("t").appendingPathComponent(name)
        let client = SKANMockClient(baseURL: base, adminToken: adminToken, session: session)
        return SKANMockTenant(
            name: name, client: client,
            singularAPIURL: base.appendingPathComponent("api/v2/conversion_value"), server: self)
    }

    /// The server's rule for a tenant name.
    static func isTenantName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        func alphanumeric(_ byte: UInt8) -> Bool {
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
        }
        guard let first = bytes.first, bytes.count <= 64, alphanumeric(first) else { return false }
        return bytes.allSatisfy { alphanumeric($0) || $0 == 0x2E || $0 == 0x5F || $0 == 0x2D }
    }
}
