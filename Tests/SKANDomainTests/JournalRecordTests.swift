import Testing

@testable import SKANDomain

/// The journal's one codec: every member the writer writes (the entry itself and the members the
/// application adds) reads back typed, so a field renamed on one side fails here, not silently in
/// `--resume` or a report.
@Suite struct JournalRecordTests {
    private func written(extra: [JSONMember], status: Int? = nil, body: [UInt8]? = nil) throws -> JournalRecord {
        let clock = ManualClock(milliseconds: T0 * 1000 + 250)
        let service = ConversionService(clock: clock)
        let sink = CollectingSink()
        let journal = Journal(clock: clock, sink: sink)
        var parameters = RequestParameters()
        for (name, value) in skan4Params(device: "QA-7", [("skan_current_conversion_value", "0"), ("p0_coarse", "9")]) {
            parameters.append(name: name, value: value)
        }
        parameters.append(name: "tag", value: "one")
        parameters.append(name: "tag", value: "two")
        parameters.addIfAbsent(name: "extra", value: "from-alias")
        let request = SKANRequest(method: "POST", path: "/custom", remote: "10.0.0.9:5000", parameters: parameters)
        let outcome = service.handle(.skan4, request)
        journal.record(
            request: request, outcome: outcome, status: status ?? outcome.status, body: body ?? outcome.body,
            durationMicros: 77, extra: extra)
        let line = try #require(sink.all.first)
        return try JournalRecord(line: line.dropLast())
    }

    private func values(_ record: JournalRecord, _ name: String) -> [String] {
        record.parameters.pairs.filter { $0.name == name }.map(\.value)
    }

    @Test func everyMemberTheWriterWritesReadsBack() throws {
        let decision = FaultInjector.Decision(delayMilliseconds: 1500, answer: .status(503))
        let record = try written(
            extra: [
                JournalRecord.clockOffsetMember(86_400), JournalRecord.tlsMember("TLSv1.3"),
                JournalRecord.routeParamsMember([("extra", "from-alias")]),
                JSONMember(JournalRecord.Field.fault, decision.json),
                JournalRecord.upstreamMember(
                    .answered(.init(status: 200, body: [0x7B, 0xFF, 0x7D]), durationMicros: 900)),
                JournalRecord.modelMember(.init(status: 200, body: Array(#"{"status":"ok"}"#.utf8))),
                JournalRecord.replayedMember(true), JournalRecord.recordedIdMember(12),
                JournalRecord.notSentMember("the server stopped during the delay")
            ], status: 503, body: Array("down".utf8))
        #expect(record.id == 1)
        #expect(record.time == T0 * 1000 + 250)
        #expect(record.method == "POST")
        #expect(record.path == "/custom")
        #expect(record.endpoint == .skan4)
        #expect(record.remote == "10.0.0.9:5000")
        #expect(record.device == "QA-7")
        #expect(record.event == "__SESSION__")
        #expect(values(record, "tag") == ["one", "two"])
        #expect(values(record, "extra") == ["from-alias"])
        #expect(values(record, "idfv") == ["QA-7"])
        #expect(record.window == .p0)
        #expect(record.issues.contains { $0.param == "p0_coarse" && $0.code == .coarseValueOutOfRange })
        #expect(record.response == .init(status: 503, body: Array("down".utf8)))
        #expect(record.durationMicros == 77)
        #expect(record.clockOffsetSeconds == 86_400)
        #expect(record.tls == "TLSv1.3")
        #expect(record.fault == .init(type: "status", delayMilliseconds: 1500))
        #expect(record.upstream == .answered(.init(status: 200, body: [0x7B, 0xFF, 0x7D]), durationMicros: 900))
        #expect(record.model == .init(status: 200, body: Array(#"{"status":"ok"}"#.utf8)))
        #expect(record.replayed == true)
        #expect(record.recordedId == 12)
        #expect(record.notSent == "the server stopped during the delay")
    }

    /// Issue 41.1: `JournalEntry.make` spells its keys as literal bytes (it runs on every request);
    /// they are the reader's `Field` names, in SPEC 2's order, then the members the application adds.
    @Test func theEntryWritesItsKeysByTheReadersNames() throws {
        typealias F = JournalRecord.Field
        let clock = ManualClock(milliseconds: T0 * 1000)
        let journal = Journal(clock: clock)
        var parameters = RequestParameters()
        for (name, value) in skan4Params(device: "QA-7", [("p0_coarse", "9")]) {
            parameters.append(name: name, value: value)
        }
        let request = SKANRequest(method: "GET", path: "/x", remote: "", parameters: parameters)
        let outcome = ConversionService(clock: clock).handle(.skan4, request)
        journal.record(
            request: request, outcome: outcome, status: 200, body: outcome.body, durationMicros: 1,
            extra: [JournalRecord.tlsMember(nil)])
        let line = try #require(journal.query().entries.first).json
        let keys = line.objectValue?.map(\.key)
        #expect(
            keys == [
                F.id, F.time, F.method, F.path, F.endpoint, F.remote, F.device, F.event, F.params, F.skan, F.window,
                F.issues, F.response, F.durationMicros, F.tls
            ])
        #expect(line[F.response]?.objectValue?.map(\.key) == [F.status, F.body])
        #expect(line[F.issues]?[0]?.objectValue?.map(\.key) == [F.param, F.code, F.message])
    }

    @Test func anUpstreamThatDidNotAnswerReadsBack() throws {
        let record = try written(extra: [
            JournalRecord.upstreamMember(
                .failed(error: "timeout", reason: "no answer in 2 s", durationMicros: 2_000_000))
        ])
        #expect(record.upstream == .failed(error: "timeout", reason: "no answer in 2 s", durationMicros: 2_000_000))
        #expect(record.upstream?.answer == nil)
        #expect(record.answeredValue == 1)
    }

    /// Issue 40.10: a received postback's member keeps its verdict and body, so a journal file
    /// alone reads the postback again, as the receiver read it; a body over the bound is left out.
    @Test func aReceivedPostbackReadsBackWithItsBody() throws {
        let body = Array(
            #"{"version":"4.0","ad-network-id":"n","transaction-id":"T-1","did-win":true,"postback-sequence-index":1,"coarse-conversion-value":"high"}"#
                .utf8)
        let postback = try ReceivedPostback.parse(body, framework: .skan).get()
        let verdict = PostbackVerdict(verified: false, key: "k", reason: "does not verify", badSignature: true)
        let comparison = PredictionVerdict(
            result: .differs, tier: 3, differences: ["coarse-conversion-value is high, skan-mock predicts low"],
            predicted: ["status": "sent_by", "fine": .null, "coarse": "low"])
        let record = try written(extra: [
            JournalRecord.postbackMember(postback, verdict: verdict, comparison: comparison, bodyBytes: body.count)
        ])
        let received = try #require(record.postback)
        #expect(received.framework == .skan && received.transactionID == "T-1" && received.index == 1)
        #expect(received.didWin == true && received.fine == nil && received.coarse == "high")
        #expect(received.version == "4.0" && received.sourceIdentifier == nil)
        #expect(received.verdict == verdict)
        #expect(received.comparison == comparison)
        #expect(received.postback == postback)
        let big = try written(extra: [
            JournalRecord.postbackMember(
                postback, verdict: verdict, comparison: comparison, bodyBytes: JournalRecord.maxPostbackBodyBytes + 1)
        ])
        #expect(big.postback?.body == nil && big.postback?.postback == nil && big.postback?.transactionID == "T-1")
        do {
            _ = try JournalRecord(
                line: Array(#"{"id":1,"postback":{"framework":"skan","transaction_id":"T","body":"x"}}"#.utf8))
            Issue.record("a postback body that is not an object was read")
        } catch {
            #expect(error.path == "$.postback.body")
        }
    }

    @Test func aMemberOfTheWrongTypeIsNamedByItsPath() {
        func problem(_ text: String) -> String {
            do {
                _ = try JournalRecord(line: Array(text.utf8))
                return "read"
            } catch {
                return "\(error.path): \(error.reason)"
            }
        }
        #expect(problem(#"{"id":"7"}"#) == "$.id: expected an integer, found string")
        #expect(problem(#"{"time":"x"}"#) == "$: no \"id\", so not a journal entry")
        #expect(problem(#"{"id":1,"time":"yesterday"}"#) == "$.time: not an RFC 3339 time: yesterday")
        #expect(problem(#"{"id":1,"endpoint":"skan9"}"#) == "$.endpoint: not an endpoint skan-mock journals: skan9")
        #expect(problem(#"{"id":1,"params":{"a":1}}"#) == "$.params.a: expected a string or strings, found integer")
        #expect(problem(#"{"id":1,"response":{"status":1000}}"#) == "$.response.status: not an HTTP status: 1000")
        #expect(problem(#"{"id":1,"issues":[{"param":"x"}]}"#) == "$.issues[0]: \"code\" is missing")
        #expect(
            problem(#"{"id":1,"upstream":{"status":200,"body_base64":"%%"}}"#) == "$.upstream.body_base64: not base64")
        #expect(problem("[1]") == "$: expected a JSON object, found array")
        #expect(problem(#"{"id":1}"#) == "read")
    }

    @Test func anEntryReadBackKeepsItsBytesAndFilterFields() throws {
        let line = Array(
            #"{"id":4,"endpoint":"skan3","device":"D","event":"buy","window":"p1","issues":[{"code":"x"}]}"#.utf8)
        let entry = JournalEntry.restored(try JournalRecord(line: line), bytes: line)
        #expect(entry.line == line + [UInt8(ascii: "\n")])
        #expect(entry.id == 4)
        #expect(entry.endpoint == .skan3)
        #expect(entry.device == "D")
        #expect(entry.event == "buy")
        #expect(entry.window == .p1)
        #expect(entry.hasIssues)
        // A code this version does not know is kept, typed as unknown.
        let codes = try JournalRecord(line: line).issues.map(\.code)
        let known = codes.contains { $0.isKnown }
        #expect(codes == [FindingCode(rawValue: "x")] && !known)
    }
}
