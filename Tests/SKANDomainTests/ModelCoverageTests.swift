import Testing

@testable import SKANDomain

@Suite struct ModelCoverageTests {
    func entries(_ json: JSONValue) -> [String: Int64] {
        var out: [String: Int64] = [:]
        for e in json["entries"]?.arrayValue ?? [] {
            let index = e["index"]?.intValue.map(String.init) ?? e["index"]?.stringValue ?? "?"
            out["\(e["window"]?.stringValue ?? "?").\(index)"] = e["hits"]?.intValue
        }
        return out
    }

    @Test func countsTheWinningEntryPerWindowAndListsTheOnesNeverUsed() {
        let (service, clock) = makeService()
        _ = service.skan4(skan4Params(device: "C"))  // p0 entry 0
        _ = service.skan4(skan4Params(device: "C"))  // p0 entry 1
        _ = service.skan4(
            // p0 entry 2
            skan4Params(
                device: "C", event: "buy",
                [("p0_total_iap_revenue", #"{"USD":1}"#), ("skan_total_revenue_by_currency", #"{"USD":1}"#)]))
        clock.advance(seconds: 3 * day)
        _ = service.skan4(skan4Params(device: "C"))  // p1 entry 0
        let json = service.coverageJSON
        #expect(json["model"] == "singular-testing")
        let hits = entries(json)
        #expect(hits["p0.0"] == 1 && hits["p0.1"] == 1 && hits["p0.2"] == 1 && hits["p0.3"] == 0)
        #expect(hits["p1.0"] == 1 && hits["p2.0"] == 0)
        #expect(json["answered"] == 4)
        let never = (json["never"]?.arrayValue ?? []).map {
            "\($0["window"]?.stringValue ?? "").\($0["index"]?.intValue ?? -1)"
        }
        #expect(never.contains("p0.3") && never.contains("p2.2") && !never.contains("p0.0"))
        #expect(json["entries"]?[0]?["entry"]?["fine"] == 1)
    }

    @Test func orModelsCountEveryMatchAndDefaultsAreListed() throws {
        let model = try loadModel(
            #"{"skan4":{"p0":{"combine":"or","entries":[{"fine":1,"when":{"event":{"name":"a"}}},{"fine":2,"when":{"event":{"name":"a"}}},{"fine":4,"when":{"event":{"name":"z"}}}],"default":{"fine":0}}}}"#
        )
        let (service, _) = makeService(model)
        // Entries 0 and 1 (conditions count the device's events).
        _ = service.skan4(skan4Params(device: "O", event: "a"))
        _ = service.skan4(skan4Params(device: "P", event: "q"))  // nothing matches: the default
        let hits = entries(service.coverageJSON)
        #expect(hits == ["p0.0": 1, "p0.1": 1, "p0.2": 0, "p0.default": 1])
    }

    @Test func faultedStrictRejectedAndClearedRequestsAreNotCounted() {
        let (service, _) = makeService()
        _ = service.handle(.skan4, request(.skan4, skan4Params(device: "F")), commit: false)
        #expect(service.coverageJSON["answered"] == 0)
        let (strict, _) = makeService(strict: true)
        _ = strict.skan4(skan4Params(device: "S", [("p0_coarse", "9")]))
        #expect(strict.coverageJSON["answered"] == 0)
        _ = service.skan4(skan4Params(device: "F"))
        #expect(service.coverageJSON["answered"] == 1)
        service.resetCoverage()
        #expect(service.coverageJSON["answered"] == 0)
        _ = service.skan4(skan4Params(device: "G"))
        service.replaceModel(.builtIn)
        #expect(service.coverageJSON["answered"] == 0)
    }

    /// `--upstream`: an answer the upstream gave is counted under the entries that answered, as
    /// matched or not; a verdict on counts cleared since is dropped.
    @Test func upstreamVerdictsAreCountedUnderTheEntriesThatAnswered() throws {
        let (service, _) = makeService()
        let first = service.skan4(skan4Params(device: "U"))  // p0 entry 0
        let second = service.skan4(skan4Params(device: "U"))  // p0 entry 1
        service.recordUpstream(first, matched: true)
        service.recordUpstream(second, matched: false)
        let json = service.coverageJSON
        #expect(json["upstream"] == ["compared": 2, "matched": 1])
        #expect(json["entries"]?[0]?["upstream"] == ["compared": 1, "matched": 1])
        #expect(json["entries"]?[1]?["upstream"] == ["compared": 1, "matched": 0])
        #expect(json["entries"]?[2]?["upstream"] == nil)
        let late = service.skan4(skan4Params(device: "V"))
        service.resetCoverage()
        service.recordUpstream(late, matched: true)
        #expect(service.coverageJSON["upstream"] == nil)
        let faulted = service.handle(.skan4, request(.skan4, skan4Params(device: "W")), commit: false)
        service.recordUpstream(faulted, matched: true)
        #expect(service.coverageJSON["upstream"] == nil)
    }
}
