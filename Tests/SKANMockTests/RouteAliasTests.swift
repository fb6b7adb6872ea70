import SKANDomain
import Testing

@testable import SKANMock

@Suite("Route aliases")
struct RouteAliasTests {
    @Test func readsPathAndEndpointName() throws {
        #expect(
            try RouteAlias(parsing: "/v2/attribution/conversion-value=skan4")
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

    @Test(arguments: [
        "/x", "x=skan4", "/x=skan5", "/x=unmatched", "/__admin/x=skan4", "/x?y=1=skan4", "/x=skan4?a", "/x=skan4?a=",
        "/x=skan4?=KEY"
    ])
    func rejectsWhatItCannotUse(text: String) {
        #expect(throws: RouteAlias.ParseError.self) { try RouteAlias(parsing: text) }
    }

    @Test func aliasesAddToSingularsPaths() {
        let routes = SingularRoutes(aliases: [RouteAlias(path: "/cv", endpoint: .skan4)])
        #expect(routes.route(at: "/cv")?.endpoint == .skan4)
        #expect(routes.route(at: "/api/v2/conversion_value")?.endpoint == .skan4)
        #expect(routes.route(at: "/api/v2/evt")?.endpoint == .event2)
        #expect(routes.route(at: "/api/v3/conversion_value") == nil)
    }

    /// Ecosia's back end adds the SDK key before calling Singular: the alias says so after a `?`.
    @Test func readsTheParametersAnAliasAdds() throws {
        let alias = try RouteAlias(
            parsing: "/v2/attribution/conversion-value=skan4?a=KEY&p=iOS&i=com.ecosia.app%2Bbeta")
        #expect(
            alias
                == RouteAlias(
                    path: "/v2/attribution/conversion-value", endpoint: .skan4,
                    parameters: [
                        .init(name: "a", value: "KEY"), .init(name: "p", value: "iOS"),
                        .init(name: "i", value: "com.ecosia.app+beta")
                    ]))
        #expect(try RouteAlias(parsing: "/e=evt?a=K").description == "/e=evt?a=K")
        let list = try RouteAlias.parseList("/a=skan3?a=K1, /b=launch?a=K2&p=iOS")
        #expect(list.map(\.parameters.count) == [1, 2])
        let routes = SingularRoutes(aliases: list)
        #expect(routes.route(at: "/b")?.added == [.init(name: "a", value: "K2"), .init(name: "p", value: "iOS")])
    }

    @Test func conflictsAreNamedInOneLine() {
        #expect(
            RouteAlias.conflict(in: [RouteAlias(path: "/api/v1/evt", endpoint: .skan4)])
                == "--route /api/v1/evt=skan4: /api/v1/evt is Singular's own path for evt, which keeps answering as itself; pick another path"
        )
        #expect(
            RouteAlias.conflict(in: [
                RouteAlias(path: "/v2/x", endpoint: .event), RouteAlias(path: "/v2/x", endpoint: .skan3)
            ])
                == "--route /v2/x=evt and --route /v2/x=skan3 both claim /v2/x; keep one")
        #expect(
            RouteAlias.conflict(in: [
                RouteAlias(path: "/v2/x", endpoint: .event), RouteAlias(path: "/v2/x", endpoint: .event)
            ]) == nil)
        #expect(
            RouteAlias.conflict(in: [RouteAlias(path: "/a", endpoint: .skan3), RouteAlias(path: "/b", endpoint: .skan3)]
            ) == nil)
    }
}
