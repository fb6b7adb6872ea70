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
        // Hoisted: Swift 6.0's #expect cannot take a `try` inside an operand.
        let statuses = [
            try await get(session(one.singularAPIURL, device: "D")),
            try await get(session(two.singularAPIURL, device: "D")),
            try await get(session(two.singularAPIURL, device: "E"))
        ]
        #expect(statuses == [200, 200, 200])
        let oneCount = try await one.client.count()
        let twoWait = try await two.client.waitForRequests(count: 2, timeout: 5)
        let oneClock = try await one.client.clock()
        let twoClock = try await two.client.clock()
        let rootCount = try await mock.client.count()
        #expect(oneCount == 1 && !twoWait.timedOut && rootCount == 0)
        #expect(oneClock.offsetSeconds == 172_800 && twoClock.offsetSeconds == 0)
        let reset = try await two.client.reset(scope: .all)
        let afterReset = try await one.client.count()
        #expect(reset == ["journal", "devices", "faults", "model", "clock"] && afterReset == 1)
        try await one.drop()
        try await one.drop()
        let afresh = try await one.client.count()
        #expect(afresh == 0)
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
