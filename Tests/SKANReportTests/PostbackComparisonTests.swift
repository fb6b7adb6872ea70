import SKANDomain
import SKANReport
import Testing

/// Issue 40.10: a received postback against skan-mock's prediction for a device, at the tier its
/// fields show, in the same window.
@Suite struct PostbackComparisonTests {
    static let t0: Int64 = 1_789_473_600

    /// A device that was answered fine 1 (a session) in p0, three days ago.
    static func predicted(didWin: Bool = true) throws -> DevicePostbacks {
        let clock = ManualClock(seconds: t0 - 3 * 86_400)
        let service = ConversionService(model: .builtIn, clock: clock, deviceCapacity: 10)
        var parameters = RequestParameters()
        for (name, value) in [
            ("a", "KEY"), ("i", "com.example.app"), ("p", "iOS"), ("idfv", "QA-1"), ("n", "__SESSION__"),
            ("skan_first_call_to_skadnetwork_timestamp", String(t0 - 3 * 86_400))
        ] { parameters.append(name: name, value: value) }
        let outcome = service.handle(
            .skan4, SKANRequest(method: "GET", path: SKANEndpoint.skan4.path, remote: "", parameters: parameters))
        #expect(outcome.bodyText.contains(#""conversion_value":1"#))
        let state = try #require(service.device("QA-1"))
        var options = PostbackQuery()
        options.didWin = didWin
        return DevicePostbacks(device: "QA-1", state: state, model: .builtIn, now: t0 * 1000, options: options)
    }

    static func received(_ members: String) throws -> ReceivedPostback {
        try ReceivedPostback.parse(
            Array(#"{"version":"4.0","ad-network-id":"n","transaction-id":"t",\#(members)}"#.utf8), framework: .skan
        ).get()
    }

    @Test func theTierIsReadFromWhatThePostbackCarries() throws {
        #expect(PostbackComparison.tier(of: try Self.received(#""conversion-value":1,"source-app-id":9"#)) == 3)
        #expect(PostbackComparison.tier(of: try Self.received(#""conversion-value":1"#)) == 2)
        #expect(PostbackComparison.tier(of: try Self.received(#""coarse-conversion-value":"low""#)) == 1)
        #expect(PostbackComparison.tier(of: try Self.received(#""postback-sequence-index":0"#)) == 0)
        #expect(PostbackComparison.tier(of: try Self.received(#""postback-sequence-index":1"#)) == 3)
    }

    @Test func theSameValueMatchesAndAnotherDiffersSayingHow() throws {
        let predicted = try Self.predicted()
        let same = PostbackComparison.compare(
            try Self.received(#""conversion-value":1,"source-app-id":9,"did-win":true"#), with: predicted)
        #expect(same.result == .matches && same.tier == 3 && same.window == "p0" && same.differences == [])
        let other = PostbackComparison.compare(
            try Self.received(#""conversion-value":5,"source-app-id":9,"did-win":true"#), with: predicted)
        #expect(other.result == .differs)
        #expect(other.differences == ["conversion-value is 5, skan-mock predicts 1"])
        // p1's window is still open with nothing answered: no coarse value predicted.
        let p1 = PostbackComparison.compare(
            try Self.received(#""postback-sequence-index":1,"coarse-conversion-value":"high""#), with: predicted)
        #expect(p1.differences == ["coarse-conversion-value is high, skan-mock predicts none"])
        #expect(p1.json["predicted"]?["status"] == "pending")
    }

    @Test func aPostbackSkanMockPredictsNoneOfDiffers() throws {
        var options = PostbackQuery()
        options.didWin = false
        let losing = try Self.predicted().rendered(options)
        let p1 = PostbackComparison.compare(
            try Self.received(#""postback-sequence-index":1,"did-win":false"#), with: losing)
        #expect(p1.result == .differs)
        #expect(
            p1.differences == [
                "skan-mock predicts no p1 postback for QA-1: a network whose ad did not win gets the first postback only"
            ])
    }

    @Test func unmatchedListsItsCandidates() throws {
        let postback = try Self.received(#""conversion-value":1"#)
        let json = PostbackComparison.unmatched(postback, candidates: ["QA-1"]).json
        #expect(json == ["result": "unmatched", "device": nil, "tier": 2, "window": "p0", "candidates": ["QA-1"]])
    }
}

/// Issue 48: the comparison the receiver journals when a postback arrives, with the device named
/// on its URL, is the admin route's, said as matches, differs or unverified.
@Suite struct PostbackComparisonOnReceiptTests {
    @Test func aNamedDeviceIsComparedAnUnknownOneDiffersAndNoneIsUnverified() throws {
        let predicted = try PostbackComparisonTests.predicted()
        let postback = try PostbackComparisonTests.received(#""conversion-value":1,"source-app-id":9,"did-win":true"#)
        var asked: [String] = []
        func predict(_ id: String, _ options: PostbackQuery) -> DevicePostbacks? {
            asked.append(id)
            #expect(options.tiers == [0, 1, 2, 3] && options.didWin && options.framework == .skan)
            return id == "QA-1" ? predicted : nil
        }
        let same = PostbackComparison.compare(postback, device: "QA-1", predict: predict)
        #expect(
            same.verdict == PredictionVerdict(result: .matches, tier: 3, differences: [], predicted: same.predicted))
        #expect(same.verdict.predicted["fine"] == 1)
        let stranger = PostbackComparison.compare(postback, device: "NOBODY", predict: predict)
        #expect(stranger.verdict.result == .differs)
        #expect(
            stranger.verdict.differences == ["skan-mock does not know device NOBODY: it has made no prediction for it"])
        let nobody = PostbackComparison.compare(postback, device: nil, predict: predict)
        #expect(nobody.result == .unmatched && nobody.verdict.result == .unverified && nobody.verdict.tier == 3)
        #expect(nobody.verdict.predicted == .null && nobody.verdict.differences.count == 1)
        // Without a device nothing is predicted: no candidates are looked for on receipt.
        #expect(asked == ["QA-1", "NOBODY"])
    }

    @Test func aDifferenceIsKeptInWords() throws {
        let predicted = try PostbackComparisonTests.predicted()
        let other = try PostbackComparisonTests.received(#""conversion-value":5,"source-app-id":9,"did-win":true"#)
        let verdict = PostbackComparison.compare(other, device: "QA-1") { _, _ in predicted }.verdict
        #expect(verdict.result == .differs && verdict.differences == ["conversion-value is 5, skan-mock predicts 1"])
        #expect(verdict.json["result"] == "differs" && verdict.json["tier"] == 3)
    }
}
