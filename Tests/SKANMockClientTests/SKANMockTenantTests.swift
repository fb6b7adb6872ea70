import Foundation
import SKANDomain
import SKANMock
import SKANMockClient
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `SKANMockClient.makeTenant` and `SKANMockServer.makeTenant`: a fresh tenant for a test in one
/// line, whose client and `SINGULAR_API_URL` see only that tenant.
@Suite("Tenants through SKANMockClient")
struct SKANMockTenantTests {
    private func get(_ url: URL) async throws -> Int {
        try await withCheckedThrowingContinuation { continuation in
            URLSession.shared.dataTask(with: url) { _, response, error in
                if let error {
                    continuation.resume(throwing: error)
                } else {
                    continuation.resume(returning: (response as? HTTPURLResponse)?.statusCode ?? 0)
                }
            }.resume()
        }
    }

    private func session(_ api: URL, device: String) -> URL {
        URL(
            string: api.absoluteString
                + "?a=k&i=com.x&p=iOS&idfv=\(device)&n=__SESSION__&skan_current_conversion_value=0&skan_first_call_to_skadnetwork_timestamp=\(ClientFixture.start)"
        )!
    }

    @Test func eachTestsTenantSeesOnlyItsOwn() async throws {
        let mock = try ClientFixture()
        let base = URL(string: "http://127.0.0.1:\(mock.server.port)")!
        let one = try SKANMockClient.makeTenant(baseURL: base)
        let two = try SKANMockClient.makeTenant(baseURL: base)
        #expect(one.name != two.name && one.name.hasPrefix("test-"))
        #expect(one.singularAPIURL.absoluteString == "\(base.absoluteString)/t/\(one.name)/api/v2/conversion_value")
        #expect(one.baseURL.absoluteString == "\(base.absoluteString)/t/\(one.name)")
        _ = try await one.client.advanceClock(seconds: 172_800)
        #expect(try await get(session(one.singularAPIURL, device: "D")) == 200)
        #expect(try await get(session(two.singularAPIURL, device: "D")) == 200)
        #expect(try await get(session(two.singularAPIURL, device: "E")) == 200)
        #expect(try await one.client.count() == 1)
        #expect(try await two.client.waitForRequests(count: 2, timeout: 5).timedOut == false)
        #expect(try await one.client.clock().offsetSeconds == 172_800)
        #expect(try await two.client.clock().offsetSeconds == 0)
        #expect(try await mock.client.count() == 0)
        #expect(try await two.client.reset(scope: .all) == ["journal", "devices", "faults", "model", "clock"])
        #expect(try await one.client.count() == 1)
        try await one.drop()
        try await one.drop()
        #expect(try await one.client.count() == 0)
        #expect(throws: SKANMockClientError.self) { try SKANMockClient.makeTenant(baseURL: base, name: "-no") }
    }

    @Test func anInProcessServerMakesTenantsToo() throws {
        let mock = try ClientFixture()
        let tenant = mock.server.makeTenant()
        #expect(tenant.baseURL == "http://127.0.0.1:\(mock.server.port)/t/\(tenant.name)")
        #expect(tenant.singularAPIURL == tenant.baseURL + "/api/v2/conversion_value")
        #expect(mock.server.tenantCount == 1)
        #expect(mock.server.makeTenant(named: "mine").name == "mine")
        #expect(mock.server.journal.count(JournalFilter(tenant: .only(tenant.name))) == 0)
    }
}
