import Testing

@testable import SKANDomain

/// Issue 48: a postback is an exchange of its own kind, journaled as endpoint `postback` with the
/// line a postback always had (its device, its findings, no SKAN fields), and read back typed:
/// what it says and how it compared with the prediction when it arrived.
@Suite struct PostbackExchangeTests {
    static let body = Array(
        #"{"version":"4.0","ad-network-id":"n","source-identifier":"5239","transaction-id":"T-1","did-win":true,"postback-sequence-index":0,"conversion-value":5}"#
            .utf8)

    static func exchange(findings: [ValidationFinding] = []) -> PostbackExchange {
        PostbackExchange(
            request: SKANRequest(
                method: "POST", path: "/.well-known/skadnetwork/report-attribution/", remote: "10.0.0.2:5000",
                parameters: RequestParameters([(name: "device", value: "QA-1")])),
            status: 200, body: Array(#"{"status":"ok"}"#.utf8), device: "QA-1", findings: findings,
            timeMilliseconds: T0 * 1000 + 7)
    }

    @Test func aPostbackIsJournaledAsItsOwnKindOfExchange() throws {
        let clock = ManualClock(seconds: T0 + 3_600)
        let sink = CollectingSink()
        let journal = Journal(clock: clock, sink: sink)
        let finding = ValidationFinding(param: "signature", code: .postbackSignatureInvalid, message: "bad")
        let id = journal.record(postback: Self.exchange(findings: [finding]), extra: [], tenant: nil)
        let entry = try #require(journal.query(JournalFilter(endpoint: .postback)).entries.first)
        #expect(entry.id == id && entry.endpoint == .postback && entry.device == "QA-1" && entry.hasIssues)
        let line = try JSONParser.parse(Array(entry.jsonBytes))
        // The exchange's own time, not the clock's when it was written.
        #expect(line["time"] == .string(RFC3339.format(milliseconds: T0 * 1000 + 7)))
        #expect(line["endpoint"] == "postback" && line["device"] == "QA-1" && line["event"] == .null)
        #expect(line["skan"] == .null && line["window"] == .null && line["duration_us"] == 0)
        #expect(line["issues"]?[0]?["code"] == "postback_signature_invalid")
        #expect(line["response"]?["status"] == 200 && line["response"]?["body"] == #"{"status":"ok"}"#)
        #expect(sink.all.count == 1)
    }

    @Test func itsTypedFieldsAndVerdictReadBack() throws {
        let postback = try ReceivedPostback.parse(Self.body, framework: .skan).get()
        let verdict = PredictionVerdict(
            result: .differs, tier: 2, differences: ["conversion-value is 5, skan-mock predicts 1"],
            predicted: ["status": "sent_by", "fine": 1, "coarse": .null])
        let journal = Journal(clock: ManualClock(seconds: T0))
        journal.record(
            postback: Self.exchange(),
            extra: [
                JournalRecord.postbackMember(
                    postback, verdict: PostbackVerdict(verified: false, key: nil, reason: "unverified: no signature"),
                    comparison: verdict, bodyBytes: Self.body.count)
            ])
        let record = try #require(journal.query().entries.first?.record)
        let received = try #require(record.postback)
        #expect(record.endpoint == .postback)
        #expect(received.framework == .skan && received.version == "4.0" && received.index == 0)
        #expect(received.fine == 5 && received.coarse == nil && received.sourceIdentifier == "5239")
        #expect(received.comparison == verdict)
        #expect(received.postback == postback)
    }

    @Test func aVerdictOfTheWrongShapeIsNamedByItsPath() {
        func problem(_ comparison: String) -> String? {
            let line = #"{"id":1,"postback":{"framework":"skan","comparison":\#(comparison)}}"#
            let read = Result { () throws(JSONProblem) -> JournalRecord in try JournalRecord(line: Array(line.utf8)) }
            switch read {
            case .success: return nil
            case .failure(let failure): return failure.path
            }
        }
        #expect(problem(#""matches""#) == "$.postback.comparison")
        #expect(problem(#"{"result":"same"}"#) == "$.postback.comparison.result")
        #expect(problem(#"{"result":"differs","differences":"x"}"#) == "$.postback.comparison.differences")
        #expect(problem(#"{"result":"differs","differences":[1]}"#) == "$.postback.comparison.differences[0]")
        #expect(problem(#"{"result":"unverified","tier":"3"}"#) == "$.postback.comparison.tier")
        #expect(problem(#"{"result":"matches","tier":3,"differences":[],"predicted":null}"#) == nil)
    }
}
