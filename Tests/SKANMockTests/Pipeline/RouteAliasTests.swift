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

    /// `NAME={SOURCE}` copies another parameter's value; the copy is made only when the source
    /// came, and the client's own value wins.
    @Test func anAliasCopiesAParameterUnderAnotherName() throws {
        let alias = try RouteAlias(parsing: "/e=evt?a=K&idfv={sing}")
        #expect(alias.parameters == [.init(name: "a", value: "K"), .init(name: "idfv", copiedFrom: "sing")])
        #expect(alias.description == "/e=evt?a=K&idfv={sing}")
        var withSing = RequestParameters()
        withSing.append(name: "sing", value: "S-1")
        #expect(withSing.add(alias.parameters) == [.init(name: "a", value: "K"), .init(name: "idfv", value: "S-1")])
        #expect(withSing["idfv"] == "S-1")
        var without = RequestParameters()
        #expect(without.add(alias.parameters) == [.init(name: "a", value: "K")])
        var own = RequestParameters()
        own.append(name: "sing", value: "S-1")
        own.append(name: "idfv", value: "MINE")
        #expect(own.add(alias.parameters).map(\.name) == ["a"])
        #expect(own["idfv"] == "MINE")
        for bad in ["/e=evt?idfv={}", "/e=evt?idfv={sing", "/e=evt?idfv=sing}", "/e=evt?idfv={a{b}"] {
            #expect(throws: RouteAlias.ParseError.self, "\(bad)") { try RouteAlias(parsing: bad) }
        }
    }

    /// Whole sentences: the /__admin refusal used to end at "the admin API's", and a comma inside
    /// one alias's query came out as an alias of its own refused for its path.
    @Test func refusalsSayWhatToDo() {
        #expect(throws: RouteAlias.ParseError.self) { try RouteAlias(parsing: "/__admin/x=skan4") }
        do {
            _ = try RouteAlias(parsing: "/__admin/x=skan4")
        } catch {
            #expect(
                error.reason
                    == "/__admin/x is under /__admin, the admin API's own prefix, which no alias may take; pick another path"
            )
        }
        do {
            _ = try RouteAlias.parseList("/a=skan4?a=K,p=iOS")
            Issue.record("a comma inside an alias's query was taken")
        } catch {
            #expect(
                error.description.hasPrefix(
                    "SKAN_MOCK_ROUTES: p=iOS: not an alias (PATH=ENDPOINT): commas separate aliases"))
        }
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

    /// Issue 30.19: paths no request can reach are refused at start, each in one line.
    @Test(arguments: [
        ("/=skan4", "/ is the console's own page"),
        ("/favicon.ico=skan4", "/favicon.ico is the console's own page"),
        ("/__admin/ui=skan4", "/__admin/ui is under /__admin"),
        ("/__admin=skan4", "/__admin is under /__admin"),
        ("/a b=skan4", "the path holds a space, which clients send percent-encoded"),
        ("/café=skan4", "the path holds \"é\", which clients send percent-encoded"),
        ("/caf%c3%a9=skan4", "%c3 is in lower case; clients send %C3"),
        ("/%41pp=skan4", "%41 is \"A\", which clients send as is; write A instead"),
        ("/a%zz=skan4", "%zz is not a percent-escape"),
        ("/a%2=skan4", "%2 is not a percent-escape"),
        // Issue 47.11: dot segments, which clients resolve before they send.
        ("/a/../b=skan4", "the path holds the segment \"..\", which clients remove before they send"),
        ("/a/./b=skan4", "the path holds the segment \".\", which clients remove before they send"),
        ("/a/..=skan4", "the segment \"..\""),
        ("/./a=skan4", "the segment \".\"")
    ])
    func pathsNoRequestCanReachAreRefused(text: String, reason: String) {
        do {
            _ = try RouteAlias(parsing: text)
            Issue.record("\(text) was taken")
        } catch {
            #expect(error.description.hasPrefix("--route \(text): "))
            #expect(error.description.contains(reason), "\(error.description)")
            #expect(!error.description.contains("\n"))
        }
    }

    /// Issue 47.11: a path longer than a request line leaves room for is refused, named by its
    /// start; one at the bound is taken.
    @Test func pathsTooLongForARequestLineAreRefused() throws {
        let longest = "/" + String(repeating: "a", count: RouteAlias.maxPathBytes - 1)
        #expect(try RouteAlias(parsing: longest + "=skan4").path == longest)
        let text = "/" + String(repeating: "a", count: 9_000) + "=skan4"
        do {
            _ = try RouteAlias(parsing: text)
            Issue.record("a 9,001-byte path was taken")
        } catch {
            #expect(error.alias == String(text.prefix(40)) + "...")
            #expect(
                error.reason.hasPrefix("the path is 9001 bytes, over the 2048 an alias may have"), "\(error.reason)")
        }
    }

    @Test func pathsAsClientsSendThemAreTaken() throws {
        #expect(try RouteAlias(parsing: "/v1/..x/.y/z.=skan4").path == "/v1/..x/.y/z.")
        #expect(try RouteAlias(parsing: "/caf%C3%A9/v1=skan4").path == "/caf%C3%A9/v1")
        #expect(try RouteAlias(parsing: "/a%2Fb=skan4").path == "/a%2Fb")
        #expect(try RouteAlias(parsing: "/v2/~x_y-z.1=skan4").path == "/v2/~x_y-z.1")
    }

    /// Issue 30.19: an alias's own parameters are checked: a name given twice, an escape that is none.
    @Test func theParametersOfAnAliasAreChecked() {
        func reason(_ text: String) -> String? {
            do {
                _ = try RouteAlias(parsing: text)
                return nil
            } catch {
                return error.description
            }
        }
        #expect(
            reason("/cv=skan4?a=K&a=L")
                == "--route /cv=skan4?a=K&a=L: a is given twice (K and L); give each added parameter once")
        #expect(
            reason("/cv=skan4?a=%zz")
                == "--route /cv=skan4?a=%zz: %zz is not a percent-escape (% and two hex digits); write a literal % as %25"
        )
        #expect(reason("/cv=skan4?a=%25zz") == nil)
    }

    /// Issue 30.19: what comes from `SKAN_MOCK_ROUTES` names the variable, not `--route`.
    @Test func errorsFromTheEnvironmentNameTheVariable() {
        do {
            _ = try RouteAlias.parseList("/a=skan4,/b=skan9")
            Issue.record("taken")
        } catch {
            #expect(error.description.hasPrefix("SKAN_MOCK_ROUTES: /b=skan9: unknown endpoint skan9"))
        }
        let aliases = [RouteAlias(path: "/v2/x", endpoint: .event), RouteAlias(path: "/v2/x", endpoint: .skan3)]
        #expect(
            RouteAlias.conflict(in: aliases, source: "SKAN_MOCK_ROUTES")
                == "SKAN_MOCK_ROUTES: /v2/x=evt and /v2/x=skan3 both claim /v2/x; keep one")
    }
}
