import Testing

@testable import SKANDomain

/// Issue 48: the journal's endpoints are Singular's plus `unmatched` and `postback`; the conversion
/// service's (`SKANEndpoint`) are Singular's only, so it cannot be asked to answer a postback.
@Suite struct JournalEndpointTests {
    @Test func everySingularEndpointIsJournaledUnderItsOwnName() {
        for endpoint in SKANEndpoint.allCases {
            let journaled = JournalEndpoint(endpoint)
            #expect(journaled.rawValue == endpoint.rawValue)
            #expect(journaled.singular == endpoint)
        }
        #expect(
            JournalEndpoint.allCases.map(\.rawValue)
                == SKANEndpoint.allCases.map(\.rawValue) + ["unmatched", "postback"])
    }

    @Test func onlyTheJournalKnowsUnmatchedAndPostback() {
        for name in ["unmatched", "postback"] {
            #expect(SKANEndpoint(rawValue: name) == nil && SKANEndpoint(name: name) == nil)
            #expect(SKANEndpoint(routeName: name) == nil)
            #expect(JournalEndpoint(name: name)?.rawValue == name)
            #expect(JournalEndpoint(name: name)?.singular == nil)
        }
        #expect(SKANEndpoint.served == SKANEndpoint.allCases)
    }

    @Test func filtersTakeSingularsPathNamesToo() {
        #expect(JournalEndpoint(name: "evt") == .event && JournalEndpoint(name: "evt2") == .event2)
        #expect(JournalEndpoint(name: "skan4") == .skan4 && JournalEndpoint(name: "events") == nil)
    }

    @Test func aRefusedRequestToNoEndpointIsJournaledUnmatched() {
        let request = SKANRequest(
            method: "GET", path: "/nowhere", remote: "", parameters: RequestParameters([(name: "idfv", value: "D")]))
        let outcome = SKANOutcome.refused(nil, request, status: 404, body: [], findings: [], timeMilliseconds: 0)
        #expect(outcome.journalEndpoint == .unmatched && outcome.device == "D")
        let known = SKANOutcome.refused(.launch2, request, status: 405, body: [], findings: [], timeMilliseconds: 0)
        #expect(known.journalEndpoint == .launch2)
    }
}
