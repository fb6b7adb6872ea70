import Testing

@testable import SKANDomain

/// A request costs what its size costs (issue 43.5): a 1 MiB form of 60,000 names with one repeat
/// held an event loop for 15.6 s (the journal compared every name with every earlier one), and a
/// revenue object of 62,000 currencies for 18.6 s (each window's currency looked up in the total's).
/// The work is counted, not timed.
@Suite struct RequestCostTests {
    /// Names `n0`...`n(count-1)`, then `n0` again.
    private func manyNamesOneRepeat(_ count: Int) -> RequestParameters {
        var parameters = RequestParameters()
        for n in 0..<count { parameters.append(name: "n\(n)", value: "v") }
        parameters.append(name: "n0", value: "again")
        return parameters
    }

    @Test func groupingRepeatedNamesLooksAtAboutOneSlotPerName() {
        let count = 60_000
        let parameters = manyNamesOneRepeat(count)
        let groups = parameters.bytes.withUnsafeBufferPointer { bytes in
            RepeatedNames(names: parameters.sentFields.map(\.name), bytes: bytes)
        }
        // Comparing each name with the earlier ones took 1.8e9 comparisons here.
        #expect(groups.probes < 4 * (count + 1))
        #expect(groups.isFirst.filter { $0 }.count == count)
        #expect(groups.next[0] == Int32(count))
        #expect(!groups.isFirst[count])
    }

    @Test func theJournalStillGroupsRepeatsInOrder() throws {
        var parameters = RequestParameters()
        for (name, value) in [("n", "a"), ("x", "1"), ("n", "b"), ("y", "2"), ("n", ""), ("x", "3")] {
            parameters.append(name: name, value: value)
        }
        var w = JSONWriter(capacity: 256)
        JournalEntry.writeParams(parameters, to: &w)
        #expect(String(decoding: w.bytes, as: UTF8.self) == #"{"n":["a","b",""],"x":["1","3"],"y":"2"}"#)
    }

    @Test func aLargeBodyWithARepeatIsJournaledWhole() throws {
        let parameters = manyNamesOneRepeat(20_000)
        var w = JSONWriter(capacity: 1 << 20)
        JournalEntry.writeParams(parameters, to: &w)
        let json = try JSONParser.parse(w.bytes)
        #expect(json.objectValue?.count == 20_000)
        #expect(json["n0"] == ["v", "again"])
        #expect(json["n19999"] == "v")
    }

    /// `{"AAA":1,"AAB":1,...}` with `count` distinct codes.
    private func currencies(_ count: Int) -> String {
        let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        var parts: [String] = []
        for n in 0..<count {
            let code = String([letters[n / 676 % 26], letters[n / 26 % 26], letters[n % 26]])
            parts.append("\"\(code)\":1")
        }
        return "{" + parts.joined(separator: ",") + "}"
    }

    @Test func aRevenueObjectReadsAtMostTwoHundredCurrencies() throws {
        let (service, _) = makeService()
        let many = currencies(5_000)
        let o = service.skan4(
            skan4Params([("skan_total_revenue_by_currency", many), ("p0_total_iap_revenue", many)]))
        let cut = o.findings.filter { $0.code == .tooManyCurrencies }
        #expect(cut.map(\.param) == ["skan_total_revenue_by_currency", "p0_total_iap_revenue"])
        #expect(
            cut.first?.message
                == "skan_total_revenue_by_currency has 5000 currencies; ISO 4217 has fewer than 200, so only the first 200 are read"
        )
        #expect(o.skan.json["total_revenue"]?.objectValue?.count == Revenue.maxCurrencies)
    }

    @Test func theCapHoldsForRevenueTheJSONParserReads() throws {
        let (service, _) = makeService()
        // A space makes it a shape the compact reader leaves to the JSON parser.
        let many = "{ " + currencies(1_000).dropFirst()
        let o = service.skan4(skan4Params([("skan_total_revenue_by_currency", many)]))
        #expect(o.findings.filter { $0.code == .tooManyCurrencies }.count == 1)
        // Currencies the model has no rate for are named, at most the 200 read.
        #expect(o.findings.filter { $0.code == .unknownCurrency }.count <= Revenue.maxCurrencies)
        #expect(o.skan.json["total_revenue"]?.objectValue?.count == Revenue.maxCurrencies)
    }
}
