import HTTPCore
import SKANDomain
import Testing

@testable import SKANMock

/// Issue 46, G2 and G10: a refused request changes nothing, and a bad tenant name is journaled.
@Suite("Refused tenant requests")
struct TenantRefusalTests {
    /// G2: the token and the guard are asked before a tenant is made for an admin path.
    @Test func aRefusedAdminRequestMakesNoTenant() throws {
        let mock = try InProcessServer { $0.adminToken = "T" }
        #expect(mock.send(.get, "/t/nope/__admin/requests").status == 401)
        #expect(mock.send(.post, "/t/nope2/__admin/reset").status == 401)
        var foreign = HTTPHeaders()
        foreign.set("Host", "evil.example")
        foreign.set("Authorization", "Bearer T")
        #expect(mock.send(.get, "/t/nope3/__admin/requests", headers: foreign).status == 421)
        #expect(mock.server.tenantCount == 0)
        // The console's page is open: it makes its tenant, as any admitted request does.
        #expect(mock.send(.get, "/t/open/__admin/ui").status == 200)
        #expect(mock.server.tenants.existing("open") != nil)
    }

    /// G2: a refused request does not touch a tenant either, so it cannot keep one in use.
    @Test func aRefusedAdminRequestDropsNoTenant() throws {
        let mock = try InProcessServer {
            $0.adminToken = "T"
            $0.maxTenants = 1
        }
        #expect(mock.session("D", path: "/t/keep/api/v2/conversion_value").status == 200)
        for name in ["x1", "x2", "x3"] {
            #expect(mock.send(.get, "/t/" + name + "/__admin/health").status == 401)
        }
        #expect(mock.server.tenants.existing("keep") != nil)
        #expect(mock.server.tenantCount == 1)
    }

    /// G10: a bad tenant name's 400 is journaled in the default tenant, the rule in its finding.
    @Test func aBadTenantNameIsJournaledInTheDefaultTenant() throws {
        let mock = try InProcessServer()
        let answer = mock.session("D", path: "/t/-bad/api/v2/conversion_value")
        #expect(answer.status == 400)
        let entries = mock.server.journal.query(JournalFilter(tenant: .only(nil))).entries.map(\.json)
        #expect(entries.count == 1)
        #expect(entries.first?["path"] == "/api/v2/conversion_value")
        #expect(entries.first?["response"]?["status"] == 400)
        let message = entries.first?["issues"]?[0]?["message"]?.stringValue ?? ""
        #expect(message.contains("bad tenant name in /t/-bad/api/v2/conversion_value"))
        #expect(message.contains(TenantName.rule))
        // An admin path with a bad name is refused and journaled nowhere (admin is never journaled).
        #expect(mock.send(.get, "/t/-bad/__admin/health").status == 400)
        #expect(mock.server.journal.count(JournalFilter(tenant: .only(nil))) == 1)
        #expect(mock.server.tenantCount == 0)
    }

    @Test func theTargetAfterABadName() {
        #expect(TenantPrefix.targetAfterName("/t/-a/api/v1/launch?x=1") == "/api/v1/launch?x=1")
        #expect(TenantPrefix.targetAfterName("/t/-a") == "/")
        #expect(TenantPrefix.targetAfterName("/t/-a?x=1") == "/?x=1")
        #expect(TenantPrefix.targetAfterName("/t//api/v1/launch") == "/api/v1/launch")
    }
}
