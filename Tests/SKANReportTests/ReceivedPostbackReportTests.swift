import SKANDomain
import Testing

@testable import SKANReport

/// Issue 40.10: `skan-mock report` reads received postbacks back from the journal (body and
/// verdict) and compares them with the prediction through the route's own `ReceivedPostbackCheck`;
/// its JUnit output fails a postback that differs or whose signature does not verify, and skips
/// one that names no device.
@Suite struct ReceivedPostbackReportTests {
    static let t0: Int64 = 1_789_473_600
    static let unsigned = PostbackVerdict(
        verified: false, key: nil, reason: "unverified: the postback has no attribution-signature")

    static func body(_ members: String) -> [UInt8] {
        Array(
            #"{"version":"4.0","ad-network-id":"n","transaction-id":"t-\#(members.utf8.count)","source-app-id":9,"did-win":true,"postback-sequence-index":0,\#(members)}"#
                .utf8)
    }

    /// A journal, as the server writes it: QA-1 answered fine 1 in p0, then, three days later,
    /// each of `postbacks` received (named for a device or not, with its verdict), and one
    /// received postback of an older version, without its body.
    static func journal(_ postbacks: [(device: String?, body: [UInt8], verdict: PostbackVerdict)]) throws -> [UInt8] {
        let clock = ManualClock(seconds: t0 - 3 * 86_400)
        let service = ConversionService(model: .builtIn, clock: clock, deviceCapacity: 10)
        let journal = Journal(clock: clock)
        var parameters = RequestParameters()
        for (name, value) in [
            ("a", "KEY"), ("i", "com.example.app"), ("p", "iOS"), ("idfv", "QA-1"), ("n", "__SESSION__"),
            ("skan_first_call_to_skadnetwork_timestamp", String(t0 - 3 * 86_400))
        ] { parameters.append(name: name, value: value) }
        let request = SKANRequest(method: "GET", path: SKANEndpoint.skan4.path, remote: "", parameters: parameters)
        let outcome = service.handle(.skan4, request)
        journal.record(
            request: request, outcome: outcome, status: outcome.status, body: outcome.body, durationMicros: 1)
        clock.advance(seconds: 3 * 86_400)
        let path = "/.well-known/skadnetwork/report-attribution/"
        for sent in postbacks {
            let postback = try ReceivedPostback.parse(sent.body, framework: .skan).get()
            let received = SKANRequest(method: "POST", path: path, remote: "10.0.0.2:5000", parameters: .init())
            let exchange = PostbackExchange(
                request: received, status: 200, body: Array("{}".utf8), device: sent.device,
                timeMilliseconds: clock.nowMilliseconds())
            let unverified = PredictionVerdict(result: .unverified, tier: nil, differences: [], predicted: .null)
            journal.record(
                postback: exchange,
                extra: [
                    JournalRecord.postbackMember(
                        postback, verdict: sent.verdict, comparison: unverified, bodyBytes: sent.body.count)
                ])
        }
        let older = SKANRequest(method: "POST", path: path, remote: "", parameters: .init())
        journal.record(
            postback: PostbackExchange(
                request: older, status: 200, body: [], device: nil, timeMilliseconds: clock.nowMilliseconds()),
            extra: [
                JSONMember(
                    "postback", ["framework": "skan", "transaction_id": "old", "index": 0, "verified": false])
            ])
        return journal.query().entries.flatMap(\.line)
    }

    static func report(_ bytes: [UInt8], device: String? = nil) throws -> JournalReport {
        var reader = JournalFileReader(InMemoryJournalSource(bytes))
        return try JournalReport.read(&reader, model: .builtIn, postbackDevice: device)
    }

    static let bad = PostbackVerdict(
        verified: false, key: nil, reason: "attribution-signature does not verify with any known key",
        badSignature: true)

    static func fourPostbacks() throws -> [UInt8] {
        try journal([
            ("QA-1", body(#""conversion-value":1"#), unsigned),
            ("QA-1", body(#""conversion-value":5"#), unsigned),
            (nil, body(#""conversion-value":1,"redownload":false"#), unsigned),
            ("QA-1", body(#""conversion-value":1,"fidelity-type":1"#), bad)
        ])
    }

    @Test func receivedPostbacksAreComparedAsTheRouteComparesThem() throws {
        let report = try Self.report(try Self.fourPostbacks())
        #expect(report.devices.map(\.device) == ["QA-1"])
        let results = report.receivedPostbacks.map(\.comparison.result)
        #expect(results == [.matches, .differs, .unmatched, .matches])
        #expect(report.receivedPostbacks[1].comparison.differences == ["conversion-value is 5, skan-mock predicts 1"])
        #expect(report.receivedPostbacks[2].comparison.candidates == ["QA-1"])
        #expect(
            report.receivedPostbacks.map { $0.failure?.type } == [
                nil, "postback_differs", nil, "postback_signature_invalid"
            ])
        #expect(report.receivedPostbacks.map { $0.skipped != nil } == [false, false, true, false])
        #expect(report.receivedWithoutBody == 1)
        #expect(report.receivedFailureCount == 2 && report.hasProblems)
        // The route's item shape, with the meaning the model gives.
        let first = report.receivedPostbacks[0].json
        #expect(first["comparison"]?["result"] == "matches")
        #expect(first["decoded"]?["meaning"]?.arrayValue?.isEmpty == false)
        #expect(first["verified"]?["reason"] == "unverified: the postback has no attribution-signature")
        #expect(report.json["received_postbacks"]?.arrayValue?.count == 4)
        let text = report.text
        #expect(text.contains("received postbacks: 4 (2 matches, 1 differs, 1 unmatched)"))
        #expect(
            text.contains(
                "  #3 skan p0 tier 3 fine 5, device QA-1: differs (conversion-value is 5, skan-mock predicts 1); unverified: the postback has no attribution-signature"
            ))
        #expect(text.contains("1 postback journaled without its body"))
    }

    @Test func aDeviceNamedForTheReportComparesThePhonesPostbacks() throws {
        let report = try Self.report(try Self.fourPostbacks(), device: "QA-1")
        #expect(report.receivedPostbacks.map(\.comparison.result) == [.matches, .differs, .matches, .matches])
        let stranger = try Self.report(try Self.fourPostbacks(), device: "NOBODY")
        // Only the postback that names no device is compared with NOBODY.
        #expect(stranger.receivedPostbacks.map(\.entry.id) == [4])
        #expect(stranger.receivedPostbacks[0].failure?.type == "postback_differs")
    }

    @Test func aMatchingVerifiedPostbackPassesAndNeedsNoFailure() throws {
        let verified = PostbackVerdict(verified: true, key: "apple", reason: "verifies with Apple's key")
        let report = try Self.report(try Self.journal([("QA-1", Self.body(#""conversion-value":1"#), verified)]))
        #expect(report.receivedPostbacks.map(\.comparison.result) == [.matches])
        #expect(report.receivedPostbacks[0].failure == nil && !report.hasProblems)
    }

    @Test func junitHasATestcasePerReceivedPostback() throws {
        let xml = JUnitReport.xml(try Self.report(try Self.fourPostbacks()))
        // One device, its postbacks, four received postbacks; two fail, one is skipped.
        #expect(xml.contains(#"<testsuite name="skan-mock" tests="6" failures="2" errors="0" skipped="1">"#))
        #expect(xml.contains(##"<testcase classname="skan-mock.received" name="#2 skan p0 t-20">"##))
        #expect(
            xml.contains(
                #"<failure type="postback_differs" message="conversion-value is 5, skan-mock predicts 1"/>"#))
        #expect(xml.contains(#"<failure type="postback_signature_invalid""#))
        #expect(
            xml.contains(
                #"<skipped message="no device named, so not compared (it could be QA-1); name one to compare: skan-mock report --postback-device ID"/>"#
            ))
    }
}
