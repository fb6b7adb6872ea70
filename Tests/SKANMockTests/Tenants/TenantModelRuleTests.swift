import Foundation
import SKANDomain
import Testing

@testable import SKANMock

/// Issue 46.5, one model rule: a tenant's `reset?scope=all` brings back the model it was born
/// with, and shadow mode's arrival order is each tenant's own.
@Suite("One model rule for tenants")
struct TenantModelRuleTests {
    private func json(_ answer: InProcessServer.Answer) -> JSONValue {
        (try? JSONParser.parse(Array(answer.text.utf8))) ?? .null
    }

    @Test func aTenantsResetBringsBackTheModelItWasBornWith() throws {
        let mock = try InProcessServer()
        let revenue = try String(contentsOfFile: TenantTests.revenueModelPath(), encoding: .utf8)
        #expect(mock.send(.put, "/__admin/model", body: revenue).status == 200)
        // Born after the root's change: the revenue model.
        #expect(json(mock.send(.get, "/t/late/__admin/model"))["name"] == "singular-revenue")
        #expect(mock.send(.post, "/t/late/__admin/reset?scope=all").status == 200)
        #expect(json(mock.send(.get, "/t/late/__admin/model"))["name"] == "singular-revenue")
        // The default tenant was born with the start-up model, and gets it back.
        #expect(mock.send(.post, "/__admin/reset?scope=all").status == 200)
        #expect(json(mock.send(.get, "/__admin/model"))["name"] == "singular-testing")
        #expect(json(mock.send(.get, "/t/late/__admin/model"))["name"] == "singular-revenue")
    }

    @Test func aTenantsShadowEntriesNeverWaitForAnothers() throws {
        let mock = try InProcessServer(upstream: .shadow)
        #expect(mock.session("S-A", path: "/t/a/api/v2/conversion_value").status == 200)
        #expect(mock.session("S-D").status == 200)
        // The default tenant's upstream replied; tenant a's has not: the default's entry is journaled.
        mock.upstream.answer(1, #"{"status":"ok","conversion_value":1}"#)
        #expect(mock.server.journal.query(JournalFilter(tenant: .only(nil))).entries.count == 1)
        #expect(mock.server.journal.query(JournalFilter(tenant: .only("a"))).entries.isEmpty)
        mock.upstream.answer(0, #"{"status":"ok","conversion_value":1}"#)
        #expect(mock.server.journal.query(JournalFilter(tenant: .only("a"))).entries.count == 1)
    }

    @Test func aNamedTenantWaitsWithinItsShareOfTheShadowBound() {
        var options = ServerOptions()
        options.maxTenants = 64
        #expect(Tenant.arrivalBounds(options) == ArrivalOrder.Limits(entries: 128, bytes: 1 << 20))
        options.maxTenants = 4
        #expect(Tenant.arrivalBounds(options) == ArrivalOrder.Limits(entries: 2048, bytes: 16 << 20))
    }
}
