import Testing

@testable import SKANDomain

/// `--resume` as a stream: devices rebuilt in id order, the newest entries listed (gaps where a
/// line was skipped), runs and reset markers honoured, within the journal's capacity.
@Suite struct JournalRestorerTests {
    /// A journal line of a SKAN 4 request by `device` at T0 + `id` seconds, answered `value`.
    private func line(
        _ id: Int64, device: String = "R", value: Int = 0, fault: String? = nil, tenant: String? = nil
    ) -> String {
        let time = RFC3339.format(milliseconds: (T0 + id) * 1000)
        let params = skan4Params(device: device).map { #""\#($0.0)":\#(JSONValue.string($0.1))"# }.joined(
            separator: ",")
        let body = JSONValue.string(
            #"{"status":"ok","conversion_value":\#(value),"skan_updated_coarse_value":0,"skan_updated_lock_window_value":false}"#
        )
        let faultMember = fault.map { #","fault":{"type":"\#($0)"}"# } ?? ""
        return
            #"{"id":\#(id)\#(tenant.map { #","tenant":"\#($0)""# } ?? ""),"time":"\#(time)","method":"GET","path":"/api/v2/conversion_value","endpoint":"skan4","remote":"","device":"\#(device)","event":"__SESSION__","params":{\#(params)},"window":"p0","issues":[],"response":{"status":200,"body":\#(body)},"duration_us":1,"clock_offset_s":\#(id * 10)\#(faultMember)}"#
    }

    private func restore(_ lines: [String], capacity: Int = 100) -> (JournalRestorer, [JournalEntry], ConversionService)
    {
        let (service, _) = makeService()
        var restorer = JournalRestorer(
            into: service, journalCapacity: capacity, journalBytes: 1 << 20, source: "j.jsonl")
        var reader = JournalFileReader(InMemoryJournalSource(Array((lines.joined(separator: "\n") + "\n").utf8)))
        while let next = try? reader.next() { restorer.add(next) }
        let entries = restorer.finish()
        return (restorer, entries, service)
    }

    @Test func devicesAreRebuiltInIdOrderAndTheNewestListed() {
        let (restorer, entries, service) = restore([line(1, value: 0), line(3, value: 2), line(2, value: 1)])
        #expect(entries.map(\.id) == [1, 2, 3])
        #expect(restorer.answered == 3)
        #expect(restorer.clockOffsetSeconds == 30)
        #expect(service.device("R")?.skan4.lastReturned[0]?.fine == 2)
    }

    @Test func aSkippedLineLeavesAGapNotALoss() {
        let (restorer, entries, _) = restore([line(1), "garbage", line(3), line(4)])
        #expect(entries.map(\.id) == [1, 3, 4])
        #expect(
            restorer.notes == [
                "skan-mock: --resume: j.jsonl:2: skipped: not JSON: invalid JSON at byte 0 (line 1, column 1): unexpected 'g', expected a value"
            ])
    }

    @Test func onlyTheJournalsCapacityIsKept() {
        let (restorer, entries, _) = restore((1...50).map { line(Int64($0)) }, capacity: 4)
        #expect(entries.map(\.id) == [47, 48, 49, 50])
        #expect(restorer.answered == 50)
    }

    @Test func idsThatStartAgainBeginANewRun() {
        let (restorer, entries, service) = restore([
            line(1, device: "OLD"), line(2, device: "OLD"), line(1, device: "NEW")
        ])
        #expect(entries.map(\.id) == [1])
        #expect(service.device("OLD") == nil)
        #expect(service.device("NEW") != nil)
        #expect(restorer.notes.contains { $0.hasPrefix("skan-mock: --resume: j.jsonl:3: ids start again at 1") })
    }

    @Test func aResetMarkerForgetsWhatItCleared() {
        let reset = #"{"type":"reset","through":2,"devices":true}"#
        let (_, entries, service) = restore([line(1, device: "A"), line(2, device: "A"), reset, line(3, device: "B")])
        #expect(entries.map(\.id) == [3])
        #expect(service.device("A") == nil)
        #expect(service.device("B") != nil)
        let clear = #"{"type":"reset","through":2,"devices":false}"#
        let (_, listed, kept) = restore([line(1, device: "A"), line(2, device: "A"), clear, line(3, device: "B")])
        #expect(listed.map(\.id) == [3])
        #expect(kept.device("A") != nil)
    }

    @Test func anAnswerAFaultReplacedLeavesNoState() {
        let (restorer, entries, service) = restore([line(1, device: "F", fault: "garbage")])
        #expect(entries.map(\.id) == [1])
        #expect(restorer.answered == 0)
        #expect(service.device("F") == nil)
    }

    @Test func theJournalTakesEntriesWithAGap() throws {
        let (_, entries, _) = restore([line(1), "garbage", line(3)])
        let clock = ManualClock(milliseconds: 0)
        let journal = Journal(capacity: 3, clock: clock)
        journal.restore(entries)
        #expect(journal.query().entries.map(\.id) == [1, 3])
        #expect(journal.size == 2)
        #expect(journal.lastId == 3)
        let reading = journal.read(after: 0, generation: 0, matching: JournalFilter(), limit: 10)
        #expect(reading.entries.map(\.id) == [1, 3])
        // The gap takes no room: the next request (id 4) fills the bound, the one after pushes id 1 out.
        for _ in 0..<2 {
            journal.record(
                request: request(.skan4, skan4Params()), outcome: nil, endpoint: .skan4, status: 200, body: [],
                durationMicros: 1)
        }
        #expect(journal.query().entries.map(\.id) == [3, 4, 5])
        #expect(journal.size == 3)
        #expect(journal.lowWatermark() == 1)
        #expect(journal.dropped == 1)
    }

    @Test func eachTenantIsRestoredApartAndAMarkerTouchesItsOwnOnly() {
        let (service, _) = makeService()
        var made: [String: ConversionService] = [:]
        var restorer = JournalRestorer(
            into: service,
            tenants: { name in
                if made[name] == nil { made[name] = makeService().0 }
                return made[name]
            }, journalCapacity: 100, journalBytes: 1 << 20, source: "j.jsonl")
        let lines = [
            line(1, device: "D", tenant: "a"), line(2, device: "D", tenant: "b"), line(3, device: "D"),
            #"{"type":"reset","through":3,"devices":true,"tenant":"a"}"#, line(4, device: "E", tenant: "a")
        ]
        var reader = JournalFileReader(InMemoryJournalSource(Array((lines.joined(separator: "\n") + "\n").utf8)))
        while let next = try? reader.next() { restorer.add(next) }
        let entries = restorer.finish()
        #expect(entries.map(\.id) == [2, 3, 4])
        #expect(entries.map(\.tenant) == ["b", nil, "a"])
        #expect(made["a"]?.device("D") == nil && made["a"]?.device("E") != nil)
        #expect(made["b"]?.device("D") != nil)
        #expect(service.device("D") != nil && service.device("E") == nil)
        #expect(restorer.clockOffsetSeconds == 30)
        #expect(restorer.tenantClockOffsets == ["a": 40, "b": 20])
    }

    /// Issue 46.6: a tenant given no service is not restored: none of its entries is kept, and a
    /// marker of its makes nothing.
    @Test func aTenantNotRestoredKeepsNothing() {
        let (service, _) = makeService()
        var asked: [String] = []
        let kept = makeService().0
        var restorer = JournalRestorer(
            into: service,
            tenants: { name in
                asked.append(name)
                return name == "kept" ? kept : nil
            }, journalCapacity: 100, journalBytes: 1 << 20, source: "j.jsonl")
        let lines = [
            line(1, device: "D", tenant: "out"), line(2, device: "D", tenant: "kept"),
            #"{"type":"reset","through":2,"devices":true,"tenant":"other"}"#, line(3, device: "E", tenant: "out")
        ]
        var reader = JournalFileReader(InMemoryJournalSource(Array((lines.joined(separator: "\n") + "\n").utf8)))
        while let next = try? reader.next() { restorer.add(next) }
        let entries = restorer.finish()
        #expect(entries.map(\.tenant) == ["kept"])
        #expect(restorer.tenantClockOffsets == ["kept": 20])
        #expect(!asked.contains("other"))
    }

    /// G15: a line naming a tenant against the rule is skipped, with the rule.
    @Test func aTenantAgainstTheRuleIsSkipped() {
        let (service, _) = makeService()
        var restorer = JournalRestorer(
            into: service, tenants: { _ in makeService().0 }, journalCapacity: 100, journalBytes: 1 << 20,
            source: "j.jsonl")
        let long = String(repeating: "x", count: 100)
        let lines = [
            line(1, tenant: "../x"), line(2, tenant: long),
            #"{"type":"reset","through":2,"devices":true,"tenant":"a b"}"#,
            line(3)
        ]
        var reader = JournalFileReader(InMemoryJournalSource(Array((lines.joined(separator: "\n") + "\n").utf8)))
        while let next = try? reader.next() { restorer.add(next) }
        #expect(restorer.finish().map(\.id) == [3])
        #expect(restorer.notes.count == 3)
        #expect(
            restorer.notes[0].hasPrefix(
                #"skan-mock: --resume: j.jsonl:1: skipped: its tenant "../x" is against the rule"#),
            "\(restorer.notes[0])")
        #expect(restorer.notes[1].contains(#"""# + String(repeating: "x", count: 40) + #""... is"#))
        #expect(restorer.notes[2].contains("j.jsonl:3:"))
    }

    /// The census ranks tenants by their last entry, within twice its limit, exactly.
    @Test func theCensusKeepsTheTenantsThatWroteLast() {
        var census = JournalTenantCensus(limit: 2)
        let names = ["a", "b", "c", "d", "e", "f", "a", "../x"]
        let lines = names.enumerated().map { line(Int64($0.offset + 1), tenant: $0.element) }
        var reader = JournalFileReader(InMemoryJournalSource(Array((lines.joined(separator: "\n") + "\n").utf8)))
        while let next = try? reader.next() { census.add(next) }
        #expect(census.restored == ["a", "f"])
        #expect(
            census.leftOutNote(source: "j.jsonl")
                == "skan-mock: --resume: j.jsonl names more tenants than --max-tenants 2: the 2 that wrote last are restored; 4 left out, with their entries and devices: b, c, d, e"
        )
        var few = JournalTenantCensus(limit: 64)
        var one = JournalFileReader(InMemoryJournalSource(Array((line(1, tenant: "a") + "\n").utf8)))
        while let next = try? one.next() { few.add(next) }
        #expect(few.restored == ["a"] && few.leftOutNote(source: "j.jsonl") == nil)
    }
}
