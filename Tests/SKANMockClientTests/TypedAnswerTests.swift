import Foundation
import SKANDomain
import SKANMock
import SKANMockClient
import SKANReport
import Testing

/// The typed answers of `report()`, `device(_:)`, `health()` and `model()` decode the JSON the
/// server writes, without a socket: the server's own serialisers where they are public, written-out
/// answers for the members they only write in some states (`upstream`, a failing `--log` file).
@Suite("SKANMockClient's typed answers")
struct TypedAnswerTests {
    private static func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try JSONDecoder().decode(type, from: Data(json.utf8))
    }

    private static func decode<T: Decodable>(_ type: T.Type, _ value: JSONValue) throws -> T {
        try JSONDecoder().decode(type, from: Data(JSONWriter.serialize(value)))
    }

    // MARK: Report

    @Test func reportFromTheServersSummary() throws {
        let entries: [JSONValue] = [
            [
                "id": 1, "method": "GET", "path": "/api/v2/conversion_value", "device": "D-1", "window": "p0",
                "response": ["status": 200, "body": #"{"conversion_value":1}"#], "issues": []
            ],
            [
                "id": 2, "method": "GET", "path": "/api/v2/conversion_value", "device": "D-1", "window": "p1",
                "response": ["status": 200, "body": #"{"conversion_value":20}"#],
                "issues": [
                    ["param": "p0_coarse", "code": "coarse_value_out_of_range", "message": "9 is outside 0...2"],
                    ["param": nil, "code": "coarse_value_out_of_range", "message": "again"]
                ]
            ],
            ["id": 3, "method": "GET", "path": "/api/v1/evt", "response": ["status": 200, "body": "{}"], "issues": []]
        ]
        let report = try Self.decode(
            Report.self, JournalReport(records: try entries.map { try JournalRecord(json: $0) }).json)
        #expect(report.requests == 3)
        #expect(report.findingCount == 2)
        #expect(report.devices.map(\.device) == ["D-1", "(none)"])
        #expect(report.unreadableLines.isEmpty)
        #expect(report.upstream == nil)
        let device = try #require(report.device("D-1"))
        #expect(device.requests == 2)
        #expect(device.windows == ["p0", "p1"])
        #expect(device.values == [1, 20])
        #expect(device.findingsByCode == ["coarse_value_out_of_range": 2])
        #expect(device.findings.map(\.requestId) == [2, 2])
        #expect(device.findings.map(\.param) == ["p0_coarse", nil])
        #expect(device.findings.first?.path == "/api/v2/conversion_value")
        #expect(report.device("nobody") == nil)
        #expect(report["requests"]?.intValue == 3)
        #expect(report.raw["devices"]?[0]?["device"] == .string("D-1"))
    }

    /// Issue 40.10: the report's received postbacks decode as `receivedPostbacks()`'s do.
    @Test func reportWithReceivedPostbacks() throws {
        let line: JSONValue = [
            "id": 4, "time": "2026-09-11T12:00:00.000Z", "method": "POST", "endpoint": "postback",
            "path": "/.well-known/skadnetwork/report-attribution/", "remote": "10.0.0.2:5000",
            "response": ["status": 200, "body": "{}"],
            "postback": [
                "framework": "skan", "transaction_id": "T-1", "index": 0, "verified": false,
                "reason": "unverified: the postback has no attribution-signature",
                "body": [
                    "version": "4.0", "ad-network-id": "n", "transaction-id": "T-1", "conversion-value": 1
                ]
            ]
        ]
        var journal = JournalReport(records: [try JournalRecord(json: line)])
        journal.checkReceived(model: nil, device: nil, developerMode: false) { _, _ in nil }
        let report = try Self.decode(Report.self, journal.json)
        let received = try #require(report.receivedPostbacks.first)
        #expect(report.receivedPostbacks.count == 1 && report.devices.isEmpty)
        #expect(received.id == 4 && received.framework == "skan" && received.namedDevice == nil)
        #expect(received.comparison.result == "unmatched" && received.comparison.candidates == [])
        #expect(received.verified.reason == "unverified: the postback has no attribution-signature")
    }

    @Test func reportWithUpstreamAndUnreadableLines() throws {
        let json = #"""
            {"requests":1,"findings":0,"devices":[{"device":"U-1","requests":1,"windows":["p0"],"values":[3],
             "findings_by_code":{},"findings":[]}],"unreadable_lines":[{"line":4,"reason":"not JSON"}],
             "upstream":{"compared":2,"matched":1,"differed":1,"failed":0,"not_compared":5,
              "groups":[{"endpoint":"skan4","window":"p0","compared":2,"matched":1,"differed":1,"failed":0}],
              "examples":[{"id":9,"device":null,"endpoint":"skan4","window":"p0","kind":"differs_from_upstream",
               "message":"fine 3, upstream 4","model":"{\"conversion_value\":3}","upstream":"{\"conversion_value\":4}"}]}}
            """#
        let report = try Self.decode(Report.self, json)
        #expect(report.unreadableLines.map(\.line) == [4])
        #expect(report.unreadableLines.map(\.reason) == ["not JSON"])
        let upstream = try #require(report.upstream)
        #expect(upstream.compared == 2 && upstream.matched == 1 && upstream.differed == 1 && upstream.failed == 0)
        #expect(upstream.notCompared == 5)
        #expect(upstream.groups.map(\.endpoint) == ["skan4"])
        let example = try #require(upstream.examples.first)
        #expect(example.requestId == 9)
        #expect(example.device == nil)
        #expect(example.kind == "differs_from_upstream")
        #expect(example.upstream == #"{"conversion_value":4}"#)
    }

    /// A report the server no longer matches is an error, not a quiet zero.
    @Test func reportWithoutItsCountsIsUnreadable() {
        #expect(throws: DecodingError.self) { try Self.decode(Report.self, #"{"devices":[]}"#) }
    }

    // MARK: Device

    @Test func deviceFromTheServersState() throws {
        var state = DeviceState(nowMilliseconds: 1_789_473_600_000)
        state.lastSeenMilliseconds = 1_789_473_660_000
        state.requests = 4
        state.skan3.events = ["__SESSION__": 2]
        state.skan3.highestValueSent = 5
        state.skan3.lastValueReturned = 6
        state.skan4.events[1] = ["purchase": 3]
        state.skan4.lockedByServer[2] = true
        state.skan4.p0Fine = 20
        let device = try Self.decode(Device.self, state.json(device: "D-9"))
        #expect(device.device == "D-9")
        #expect(device.firstSeen == "2026-09-15T12:00:00.000Z")
        #expect(device.lastSeen == "2026-09-15T12:01:00.000Z")
        #expect(device.requests == 4)
        #expect(device.skan3.events == ["__SESSION__": 2])
        #expect(device.skan3.highestValueSent == 5)
        #expect(device.skan3.lastValueReturned == 6)
        #expect(device.skan4.p1.events == ["purchase": 3])
        #expect(device.skan4.p0.lastReturned == nil)
        #expect(device.skan4.p2.locked)
        #expect(!device.skan4.p0.locked)
        #expect(device.skan4.p0Fine == 20)
        #expect(device.skan4["p1"] == device.skan4.p1)
        #expect(device.skan4["over"] == nil)
        #expect(device.s2s.p0Fine == nil)
        #expect(device.s2s.p0.events.isEmpty)
        #expect(device["requests"]?.intValue == 4)
    }

    @Test func deviceLastReturnedValues() throws {
        let window = #"{"events":{},"last_returned":null,"locked":false}"#
        let json = """
            {"device":"D","first_seen":"t","last_seen":"t","requests":1,
             "skan3":{"events":{},"highest_value_sent":null,"last_value_returned":null},
             "skan4":{"p0":{"events":{"__SESSION__":1},"last_returned":{"fine":1,"coarse":0,"lock":false},"locked":false},
                      "p1":{"events":{},"last_returned":{"coarse":2,"lock":true},"locked":true},"p2":\(window),"p0_fine":1},
             "s2s":{"p0":\(window),"p1":\(window),"p2":\(window),"p0_fine":null}}
            """
        let device = try Self.decode(Device.self, json)
        let p0 = try #require(device.skan4.p0.lastReturned)
        #expect(p0.fine == 1 && p0.coarse == 0 && !p0.lock)
        let p1 = try #require(device.skan4.p1.lastReturned)
        #expect(p1.fine == nil && p1.coarse == 2 && p1.lock)
        #expect(device.skan3.highestValueSent == nil)
    }

    // MARK: Health

    @Test func healthWithAFailingJournalFile() throws {
        let json = #"""
            {"status":"ok","version":"0.9.0","uptime_s":12,"model":{"name":"m","source":"m.json","reload_error":"$.skan4: not an object"},
             "clock_offset_s":-172800,"journal":{"size":3,"dropped":4,"capacity":10000,"bytes":900,"capacity_bytes":67108864,
              "file":{"state":"failing","since":"2026-09-15T12:00:00.000Z","reason":"No space left on device","waiting":2,"lost":1}},
             "devices":2}
            """#
        let health = try Self.decode(Health.self, json)
        #expect(health.status == "ok")
        #expect(health.version == "0.9.0")
        #expect(health.uptimeSeconds == 12)
        #expect(health.model.name == "m" && health.model.source == "m.json")
        #expect(health.model.reloadError == "$.skan4: not an object")
        #expect(health.clockOffsetSeconds == -172_800)
        #expect(health.journal.size == 3 && health.journal.dropped == 4 && health.journal.capacity == 10_000)
        #expect(health.journal.bytes == 900 && health.journal.capacityBytes == 67_108_864)
        let file = try #require(health.journal.file)
        #expect(file.isFailing)
        #expect(file.reason == "No space left on device")
        #expect(file.waiting == 2 && file.lost == 1)
        #expect(health.devices == 2)
        #expect(health["devices"]?.intValue == 2)
    }

    // MARK: Model

    @Test func theBuiltInModel() throws {
        let model = try Self.decode(ModelInfo.self, ConversionModel.builtIn.json)
        #expect(model.name == "singular-testing")
        #expect(model.currency?.base == "USD")
        #expect(model.currency?.rates?["EUR"] == 1.08)
        let skan3 = try #require(model.skan3)
        #expect(skan3.mode == "increment" && skan3.max == 2 && skan3.whenExhausted == "empty")
        #expect(skan3.entries == nil)
        let p0 = try #require(model.skan4?.p0)
        #expect(p0.combine == "last")
        #expect(p0.entries.map(\.fine) == [1, 2, 10, 20])
        #expect(p0.entries.map(\.coarse) == [0, 0, 1, 2])  // written low, low, medium, high
        #expect(p0.entries.first?.when?["event"]?["name"] == .string("__SESSION__"))
        let p2 = try #require(model.skan4?["p2"])
        #expect(p2.entries.map(\.lock) == [nil, nil, true])
        #expect(model.s2s?.launch == false && model.s2s?.evt == false)
        #expect(model.faults == nil)
        #expect(model["$schema"] == .string("./model.schema.json"))
    }

    @Test func aSparseModelLeavesWhatItOmitsNil() throws {
        let json = #"""
            {"skan3":{"mode":"rules","combine":"or","entries":[{"value":16,"when":{"days":{"min":1}}}]},
             "skan4":{"p1":{"entries":[{"coarse":1}],"default":{"coarse":"low","lock":true}}},
             "faults":[{"type":"drop"}]}
            """#
        let model = try Self.decode(ModelInfo.self, json)
        #expect(model.name == nil && model.description == nil && model.currency == nil && model.s2s == nil)
        #expect(model.skan3?.entries?.map(\.value) == [16])
        #expect(model.skan4?.p0 == nil)
        let p1 = try #require(model.skan4?.p1)
        #expect(p1.entries.map(\.coarse) == [1])
        #expect(p1.defaultAnswer?.coarse == 0)
        #expect(p1.defaultAnswer?.lock == true)
        #expect(model.faults?.count == 1)
        #expect(throws: DecodingError.self) {
            try Self.decode(ModelInfo.self, #"{"skan4":{"p1":{"entries":[{"coarse":"huge"}]}}}"#)
        }
    }
}
