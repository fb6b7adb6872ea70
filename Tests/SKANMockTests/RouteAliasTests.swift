import SKANDomain
import Testing
@testable import SKANMock

@Suite("Route aliases")
struct RouteAliasTests {
    @Test func readsPathAndEndpointName() throws {
        #expect(try RouteAlias(parsing: "/v2/attribution/conversion-value=skan4")
            == RouteAlias(path: "/v2/attribution/conversion-value", endpoint: .skan4))
        #expect(try RouteAlias(parsing: "/s2s/evt=evt").endpoint == .event)
        #expect(try RouteAlias(parsing: "/s2s/evt2=evt2").endpoint == .event2)
        #expect(try RouteAlias(parsing: "/s2s/launch=launch2").endpoint == .launch2)
    }

    @Test func readsACommaList() throws {
        let list = try RouteAlias.parseList(" /a=skan3, /b=skan4 ,")
        #expect(list == [RouteAlias(path: "/a", endpoint: .skan3), RouteAlias(path: "/b", endpoint: .skan4)])
        #expect(try RouteAlias.parseList("").isEmpty)
    }

    @Test(arguments: ["/x", "x=skan4", "/x=skan5", "/x=unmatched", "/__admin/x=skan4", "/x?y=1=skan4"])
    func rejectsWhatItCannotUse(text: String) {
        #expect(throws: RouteAlias.ParseError.self) { try RouteAlias(parsing: text) }
    }

    @Test func aliasesAddToSingularsPaths() {
        let routes = SingularRoutes(aliases: [RouteAlias(path: "/cv", endpoint: .skan4)])
        #expect(routes.endpoint(at: "/cv") == .skan4)
        #expect(routes.endpoint(at: "/api/v2/conversion_value") == .skan4)
        #expect(routes.endpoint(at: "/api/v2/evt") == .event2)
        #expect(routes.endpoint(at: "/api/v3/conversion_value") == nil)
    }
}
