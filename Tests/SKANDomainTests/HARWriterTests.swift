import Testing

@testable import SKANDomain

/// The journal as HAR: an entry carries the request as sent (an alias's additions left out, a
/// POST's parameters as its form body), the answer byte for byte (base64 when not UTF-8), its
/// time, and the findings in `comment`; and it reads back through `check`'s own reader.
@Suite struct HARWriterTests {
    private func record(method: String = "GET", tenant: String? = nil, body: [UInt8] = Array(#"{"status":"ok"}"#.utf8))
        -> JournalRecord
    {
        var parameters = RequestParameters()
        parameters.append(name: "idfv", value: "D 1&2")
        parameters.append(name: "p0_coarse", value: "7")
        _ = parameters.addIfAbsent(name: "a", value: "ADDED")
        var record = JournalRecord(
            id: 4, time: 1_795_000_000_000, method: method, path: "/api/v2/conversion_value", endpoint: .skan4,
            device: "D 1&2", parameters: parameters, window: .p0,
            issues: [.init(param: "p0_coarse", code: .coarseValueOutOfRange, message: "p0_coarse 7 is outside 0...2")],
            response: .init(status: 200, body: body))
        record.tenant = tenant
        record.durationMicros = 1500
        return record
    }

    @Test func aGetEntry() throws {
        let entry = HARWriter.entry(record(tenant: "qa-1"), origin: "http://127.0.0.1:8080")
        #expect(
            entry["request"]?["url"]
                == "http://127.0.0.1:8080/t/qa-1/api/v2/conversion_value?idfv=D%201%262&p0_coarse=7")
        #expect(entry["request"]?["queryString"]?.arrayValue?.count == 2)
        #expect(entry["startedDateTime"] == "2026-11-18T11:06:40.000Z")
        #expect(entry["time"] == 1.5)
        #expect(entry["timings"]?["wait"] == 1.5)
        #expect(entry["response"]?["content"]?["text"] == #"{"status":"ok"}"#)
        #expect(entry["comment"] == "skan-mock: p0_coarse: coarse_value_out_of_range: p0_coarse 7 is outside 0...2")
        #expect(entry["_skan_mock"]?["issues"]?[0]?["code"] == "coarse_value_out_of_range")
    }

    @Test func aPostAndABodyThatIsNotText() throws {
        let entry = HARWriter.entry(record(method: "POST", body: [0xFF, 0x00]), origin: "https://h")
        #expect(entry["request"]?["url"] == "https://h/api/v2/conversion_value")
        #expect(entry["request"]?["postData"]?["text"] == "idfv=D%201%262&p0_coarse=7")
        #expect(entry["response"]?["content"]?["encoding"] == "base64")
        #expect(entry["response"]?["content"]?["text"] == "/wA=")
    }

    @Test func itReadsBackThroughTheCaptureReader() throws {
        var postback = JournalRecord(id: 9, time: 1, endpoint: .postback)
        postback.method = "POST"
        let document = HARWriter.document(
            [record(), record(method: "POST", body: [0xFF]), postback], origin: "http://h:1", creatorVersion: "9.9")
        var reader = HARStreamReader(InMemoryJournalSource(document))
        var read: [HARExchange] = []
        while case .entry(let index, let bytes)? = try reader.next() {
            read.append(try HARExchange(json: try JSONParser.parse(bytes), index: index))
        }
        #expect(reader.problem == nil)
        #expect(read.count == 2)
        #expect(read[0].query == "idfv=D%201%262&p0_coarse=7")
        #expect(read[0].started == 1_795_000_000_000)
        #expect(read[0].responseBody == Array(#"{"status":"ok"}"#.utf8))
        #expect(read[1].requestBody == Array("idfv=D%201%262&p0_coarse=7".utf8))
        #expect(read[1].responseBody == [0xFF])
        let parsed = try JSONParser.parse(document)
        #expect(parsed["log"]?["creator"]?["version"] == "9.9")
    }
}
