import Dispatch
import SystemPOSIX
import Testing

@testable import SKANDomain

@Suite struct JournalTests {
    func record(
        _ journal: Journal, _ service: ConversionService, _ endpoint: SKANEndpoint, _ params: [(String, String)],
        status: Int? = nil, body: [UInt8]? = nil, extra: [JSONMember] = []
    ) {
        let req = request(endpoint, params)
        let o = service.handle(endpoint, req)
        journal.record(
            request: req, outcome: o, status: status ?? o.status, body: body ?? o.body, durationMicros: 42, extra: extra
        )
    }

    @Test func entryHasEveryFieldInSpecOrder() throws {
        let clock = ManualClock(milliseconds: T0 * 1000 + 123)
        let service = ConversionService(clock: clock)
        let sink = CollectingSink()
        let journal = Journal(clock: clock, sink: sink)
        record(
            journal, service, .skan4,
            skan4Params([
                ("skan_current_conversion_value", "0"), ("p0_coarse", "9"),
                ("skan_total_revenue_by_currency", #"{"USD":1.5}"#)
            ]))
        let lines = sink.all
        #expect(lines.count == 1)
        #expect(lines[0].last == UInt8(ascii: "\n"))
        #expect(lines[0].dropLast().contains(UInt8(ascii: "\n")) == false)
        let e = try JSONParser.parse(Array(lines[0].dropLast()))
        #expect(
            e.objectValue?.map(\.key) == [
                "id", "time", "method", "path", "endpoint", "remote", "device", "event",
                "params", "skan", "window", "issues", "response", "duration_us"
            ])
        #expect(e["id"] == 1)
        #expect(e["time"] == "2025-11-21T04:40:00.123Z")
        #expect(e["method"] == "GET")
        #expect(e["path"] == "/api/v2/conversion_value")
        #expect(e["endpoint"] == "skan4")
        #expect(e["remote"] == "127.0.0.1:50000")
        #expect(e["device"] == "IDFV-1")
        #expect(e["event"] == "__SESSION__")
        #expect(e["params"]?["skan_total_revenue_by_currency"] == #"{"USD":1.5}"#)
        #expect(e["params"]?["p0_coarse"] == "9")
        #expect(
            e["skan"] == [
                "current_fine": 0, "first_call": .int(T0), "total_revenue": ["USD": 1.5],
                "windows": ["p0": ["coarse": 9]]
            ])
        #expect(e["window"] == "p0")
        #expect(
            e["issues"] == [
                [
                    "param": "p0_coarse", "code": "coarse_value_out_of_range",
                    "message": "p0_coarse 9 is outside 0...2 (0 low, 1 medium, 2 high)"
                ]
            ])
        // Built-in model: revenue of at least 0.01 USD in p0 is fine 10, coarse medium.
        #expect(
            e["response"] == [
                "status": 200,
                "body":
                    #"{"status":"ok","conversion_value":10,"skan_updated_coarse_value":1,"skan_updated_lock_window_value":false}"#
            ])
        #expect(e["duration_us"] == 42)
        #expect(journal.query().entries.first?.json == e)
    }

    @Test func repeatedKeysKeepEveryValueInTheLog() throws {
        let (service, _) = makeService()
        let journal = Journal(clock: ManualClock(seconds: T0))
        record(journal, service, .skan4, [("n", "a"), ("x", "1"), ("n", "b"), ("n", ""), ("y", "é &")])
        let e = journal.query().entries[0].json
        #expect(e["params"] == ["n": ["a", "b", ""], "x": "1", "y": "é &"])
        // The typed value uses the last (empty: absent).
        #expect(e["event"] == nil || e["event"] == .null)
    }

    @Test func recordsWhatWasActuallySentAndExtraMembers() throws {
        let (service, _) = makeService()
        let journal = Journal(clock: ManualClock(seconds: T0))
        record(journal, service, .skan3, skan3Params(value: "2"))
        record(
            journal, service, .skan3, skan3Params(value: "0"), status: 503, body: Array("{\"broken".utf8),
            extra: [JSONMember("fault", ["kind": "status"])])
        let entries = journal.query().entries.map(\.json)
        #expect(entries[0]["response"] == ["status": 200, "body": ""])
        #expect(entries[0]["window"] == .null)
        #expect(entries[1]["response"] == ["status": 503, "body": "{\"broken"])
        #expect(entries[1]["fault"] == ["kind": "status"])
    }

    @Test func requestsTheServiceNeverSawAreRecordedToo() {
        let journal = Journal(clock: ManualClock(seconds: T0))
        let req = SKANRequest(
            method: "DELETE", path: "/api/v1/evt", remote: "[::1]:9", parameters: [(name: "idfv", value: "D")])
        journal.record(request: req, outcome: nil, endpoint: .event, status: 405, body: [], durationMicros: 1)
        let e = journal.query().entries[0]
        #expect(e.endpoint == .event)
        #expect(e.device == "D")
        #expect(e.json["skan"] == .null)
        #expect(e.json["issues"] == [])
        #expect(e.json["time"] == "2025-11-21T04:40:00.000Z")
    }

    @Test func capacityDropsTheOldestAndCountsThem() {
        let (service, _) = makeService()
        let journal = Journal(capacity: 3, clock: ManualClock(seconds: T0))
        for _ in 0..<5 { record(journal, service, .skan3, skan3Params()) }
        #expect(journal.size == 3)
        #expect(journal.dropped == 2)
        let page = journal.query()
        #expect(page.entries.map(\.id) == [3, 4, 5])
        #expect(page.dropped == 2)
        #expect(journal.lastId == 5)
        journal.clear()
        #expect(journal.size == 0 && journal.dropped == 0)
        record(journal, service, .skan3, skan3Params())
        #expect(journal.query().entries.map(\.id) == [6])
    }

    /// A recorder of tenant `a` that took its id and has not stored its entry yet (descheduled
    /// while building its JSON) holds back tenant `b`'s later entry: a count of `b`'s, and a
    /// clear of `b`'s, wait for it, so each sees every exchange recorded before it began. A CI run
    /// once counted none of a tenant's five requests, made just before, for this.
    @Test func readsAndClearsWaitForEntriesRecordedBeforeThem() {
        let (service, _) = makeService()
        let journal = Journal(clock: ManualClock(seconds: T0))
        func entry(_ id: Int64, tenant: String) -> JournalEntry {
            let req = request(.skan3, skan3Params())
            let o = service.handle(.skan3, req)
            return JournalEntry.make(
                id: id, timeMilliseconds: T0 * 1000, request: req, endpoint: nil, outcome: o, status: 200, body: [],
                durationMicros: 1, extra: [], tenant: tenant)
        }
        for round in 0..<2 {
            let held = journal.takeId()
            let mine = journal.takeId()
            journal.store(entry(mine, tenant: "b"))
            let answered = DispatchSemaphore(value: 0)
            let seen = Mutex(-1)
            DispatchQueue.global().async {
                if round == 0 {
                    seen.withLock { $0 = journal.count(JournalFilter(tenant: .only("b"))) }
                } else {
                    journal.clear(tenant: "b")
                    seen.withLock { $0 = journal.count(JournalFilter(tenant: .only("b"))) }
                }
                answered.signal()
            }
            #expect(answered.wait(timeout: .now() + .milliseconds(100)) == .timedOut, "it waits for id \(held)")
            journal.store(entry(held, tenant: "a"))
            #expect(answered.wait(timeout: .now() + 10) == .success)
            // The count saw b's entry; the clear removed it (nothing came back after the clear).
            #expect(seen.withLock { $0 } == (round == 0 ? 1 : 0))
        }
    }

    /// One tenant's clear empties its own part: the others' entries stay, with their ids, each
    /// part bounded on its own.
    @Test func aTenantsClearLeavesTheOthersEntries() {
        let (service, _) = makeService()
        let journal = Journal(capacity: 4, clock: ManualClock(seconds: T0))
        for tenant in ["a", nil, "a", "b"] as [String?] {
            let req = request(.skan3, skan3Params())
            let o = service.handle(.skan3, req)
            journal.record(request: req, outcome: o, status: 200, body: [], durationMicros: 1, tenant: tenant)
        }
        journal.clear(devices: true, tenant: "a")
        #expect(journal.query().entries.map(\.id) == [2, 4])
        #expect(journal.size == 2)
        #expect(journal.query(JournalFilter(tenant: .only(nil))).entries.map(\.id) == [2])
        #expect(journal.count(JournalFilter(tenant: .only("b"))) == 1)
        for _ in 0..<4 { record(journal, service, .skan3, skan3Params()) }
        #expect(journal.query().entries.map(\.id) == [4, 5, 6, 7, 8])
        #expect(
            journal.dropped == 1 && journal.usage(tenant: nil).dropped == 1 && journal.usage(tenant: "b").dropped == 0)
        journal.clear(tenant: "b")
        journal.clear()
        #expect(journal.size == 0 && journal.dropped == 0 && journal.bytes == 0)
    }

    /// Issue 46.1: a tenant's entries are bounded by its own share; another tenant's traffic, or
    /// the default tenant's, never drops them, and each part counts only its own drops.
    @Test func anotherTenantsTrafficNeverDropsATenantsEntries() {
        let journal = Journal(capacity: 100, tenantCapacity: 10, clock: ManualClock(seconds: T0))
        func send(_ tenant: String?, _ n: Int) {
            for _ in 0..<n {
                let req = request(.skan3, skan3Params())
                journal.record(
                    request: req, outcome: nil, endpoint: .skan3, status: 200, body: [], durationMicros: 1,
                    tenant: tenant)
            }
        }
        send("ta", 3)
        send(nil, 150)
        send("tb", 150)
        let ta = journal.query(JournalFilter(tenant: .only("ta")))
        #expect(ta.entries.map(\.id) == [1, 2, 3] && ta.total == 3 && ta.dropped == 0)
        let tb = journal.query(JournalFilter(tenant: .only("tb")))
        #expect(tb.total == 10 && tb.dropped == 140 && tb.entries.first?.id == 294)
        let root = journal.query(JournalFilter(tenant: .only(nil)))
        #expect(root.total == 100 && root.dropped == 50)
        #expect(journal.bounds(tenant: "ta") == (10, 64 << 20) && journal.bounds(tenant: nil).capacity == 100)
        // A dropped tenant gives its part back.
        journal.clear(devices: true, tenant: "tb", forget: true)
        #expect(!journal.tenants.contains("tb"))
    }

    /// A reader of one tenant is told of a clear of its own entries only (issue 46 G8).
    @Test func aClearWakesTheReadersOfItsTenantOnly() {
        let journal = Journal(clock: ManualClock(seconds: T0))
        let woken = Mutex<[String]>([])
        let (a, _) = journal.addReader(tenant: .only("a")) { woken.withLock { $0.append("a") } }
        let (b, position) = journal.addReader(tenant: .only("b")) { woken.withLock { $0.append("b") } }
        journal.clear(tenant: "a")
        #expect(woken.withLock { $0 } == ["a"])
        let reading = journal.read(
            after: position.lastId, generation: position.generation, matching: JournalFilter(tenant: .only("b")),
            limit: 10)
        #expect(!reading.reset)
        journal.removeReader(a)
        journal.removeReader(b)
    }

    @Test func filters() {
        let (service, clock) = makeService()
        let journal = Journal(clock: ManualClock(seconds: T0))
        record(journal, service, .skan4, skan4Params(device: "A", event: "level"))  // 1 p0 clean
        record(journal, service, .skan4, skan4Params(device: "B", [("p0_coarse", "5")]))  // 2 p0 issue
        record(journal, service, .skan3, skan3Params(device: "A"))  // 3 no window
        clock.advance(seconds: 3 * day)
        record(journal, service, .skan4, skan4Params(device: "A", event: "level"))  // 4 p1
        record(journal, service, .launch, [("a", "K")])  // 5 error, issues
        func ids(_ f: JournalFilter) -> [Int64] { journal.query(f).entries.map(\.id) }
        #expect(ids(JournalFilter()) == [1, 2, 3, 4, 5])
        #expect(ids(JournalFilter(endpoint: .skan4)) == [1, 2, 4])
        #expect(ids(JournalFilter(device: "A")) == [1, 3, 4])
        #expect(ids(JournalFilter(event: "level")) == [1, 4])
        #expect(ids(JournalFilter(window: .window(.p0))) == [1, 2])
        #expect(ids(JournalFilter(window: JournalFilter.WindowMatch("p1"))) == [4])
        #expect(ids(JournalFilter(window: JournalFilter.WindowMatch("null"))) == [3, 5])
        #expect(ids(JournalFilter(hasIssues: true)) == [2, 5])
        #expect(ids(JournalFilter(hasIssues: false)) == [1, 3, 4])
        #expect(ids(JournalFilter(endpoint: .skan4, device: "A", window: .window(.p1))) == [4])
        #expect(journal.count(JournalFilter(device: "A")) == 3)
        #expect(journal.count(JournalFilter(device: "A", limit: 1)) == 3)
        #expect(JournalFilter.WindowMatch("p9") == nil)
    }

    @Test func sinceIdAndLimit() {
        let (service, _) = makeService()
        let journal = Journal(clock: ManualClock(seconds: T0))
        for _ in 0..<6 { record(journal, service, .skan3, skan3Params()) }
        // Polling: the oldest entries after since_id.
        let poll = journal.query(JournalFilter(sinceId: 2, limit: 2))
        #expect(poll.entries.map(\.id) == [3, 4])
        #expect(poll.total == 4)
        // Without since_id: the newest, still oldest first.
        let tail = journal.query(JournalFilter(limit: 2))
        #expect(tail.entries.map(\.id) == [5, 6])
        #expect(tail.total == 6)
        #expect(journal.query(JournalFilter(sinceId: 6)).entries.isEmpty)
        #expect(journal.query(JournalFilter(limit: 0)).entries.isEmpty)
    }

    @Test func pageJSONSplicesEntries() throws {
        let (service, _) = makeService()
        let journal = Journal(capacity: 1, clock: ManualClock(seconds: T0))
        record(journal, service, .skan3, skan3Params())
        record(journal, service, .skan3, skan3Params())
        let page = try JSONParser.parse(journal.query().json())
        #expect(page.objectValue?.map(\.key) == ["requests", "total", "dropped"])
        #expect(page["requests"]?[0]?["id"] == 2)
        #expect(page["total"] == 1)
        #expect(page["dropped"] == 1)
    }

    @Test func concurrentRecordsReachTheSinkInIdOrder() throws {
        let (service, _) = makeService()
        let sink = CollectingSink()
        let journal = Journal(capacity: 500, clock: ManualClock(seconds: T0), sink: sink)
        DispatchQueue.concurrentPerform(iterations: 2_000) { n in
            let req = request(.skan4, skan4Params(device: "D\(n % 37)"))
            let o = service.handle(.skan4, req)
            journal.record(request: req, outcome: o, status: o.status, body: o.body, durationMicros: 1)
        }
        let ids = try sink.all.map { try JSONParser.parse(Array($0.dropLast()))["id"]?.intValue ?? -1 }
        #expect(ids == Array(1...2_000))
        #expect(journal.size == 500)
        #expect(journal.dropped == 1_500)
        #expect(journal.query().entries.map(\.id) == Array(1_501...2_000))
    }
}

/// The journal held in bytes too (issue 22): huge requests cannot hold gigabytes.
@Suite struct JournalBytesTests {
    @Test func theOldestGoFirstWhenTheBytesRunOut() throws {
        let clock = ManualClock(seconds: T0)
        let service = ConversionService(clock: clock)
        let journal = Journal(capacity: 1000, capacityBytes: 4000, clock: clock)
        for n in 1...20 {
            let req = request(
                .skan3, [("idfv", "B-\(n)"), ("conversion_value", "0"), ("pad", String(repeating: "p", count: 500))])
            let o = service.handle(.skan3, req)
            journal.record(request: req, outcome: o, status: o.status, body: o.body, durationMicros: 1)
        }
        #expect(journal.bytes <= 4000)
        #expect(journal.size > 0 && journal.size < 20)
        #expect(Int64(journal.size) + journal.dropped == 20)
        #expect(journal.query(JournalFilter()).entries.last?.json["device"] == "B-20")
        // The newest entry is kept whatever its size.
        let huge = request(
            .skan3, [("idfv", "HUGE"), ("conversion_value", "0"), ("a", String(repeating: "a", count: 3900))])
        journal.record(request: huge, outcome: service.handle(.skan3, huge), status: 200, body: [], durationMicros: 1)
        #expect(journal.query(JournalFilter()).entries.map { $0.json["device"] } == ["HUGE"])
        journal.clear()
        #expect(journal.bytes == 0)
    }

    @Test func aHugeValueIsKeptCutWithAFindingAndItsLength() throws {
        let clock = ManualClock(seconds: T0)
        let service = ConversionService(clock: clock)
        let journal = Journal(clock: clock)
        let value = String(repeating: "é", count: 5000)  // 10,000 bytes of two-byte characters
        let req = request(.event, [("a", "K"), ("p", "iOS"), ("i", "x"), ("idfv", "CUT"), ("n", "e"), ("blob", value)])
        journal.record(request: req, outcome: service.handle(.event, req), status: 200, body: [], durationMicros: 1)
        let entry = try #require(journal.query(JournalFilter()).entries.first?.json)
        let kept = try #require(entry["params"]?["blob"]?.stringValue)
        #expect(kept.utf8.count == JournalEntry.maxValueBytes)
        #expect(value.hasPrefix(kept))
        let finding = try #require(entry["issues"]?.arrayValue?.first { $0["code"] == "value_truncated" })
        #expect(finding["param"] == "blob")
        #expect(
            finding["message"] == "blob is 10000 bytes; the journal keeps its first 4096 (the server read all of it)")
    }
}
