import Testing

@testable import SKANDomain

/// Apple's postback rules on vectors: windows, locks, delays, tiers, SKAN 3's timer, and what a
/// value means in the model.
@Suite("Postback simulator")
struct PostbackSimulatorTests {
    let first: Int64 = 1_789_000_000
    let hour: Int64 = 3600
    let day: Int64 = 86_400

    func state() -> WindowedDeviceState {
        var s = WindowedDeviceState()
        s.firstCallSeconds = first
        s.lastReturned[0] = ModelAnswer(fine: 10, coarse: 1, lock: false)
        s.lastSetMilliseconds[0] = (first + hour) * 1000
        s.lastReturned[1] = ModelAnswer(fine: 10, coarse: 2, lock: true)
        s.lockedAtMilliseconds[1] = (first + 4 * day) * 1000
        return s
    }

    @Test func windowsDelaysAndLocks() {
        let postbacks = PostbackSimulator.skan4(state(), tier: 3, now: (first + 40 * day) * 1000)
        #expect(postbacks.map(\.status) == [.sentBy, .locked, .neverSent])
        // p0 ends after 48 h; its postback comes 24 to 48 h later.
        #expect(postbacks[0].windowEnd == first + 2 * day)
        #expect(postbacks[0].sendInterval == (first + 3 * day)...(first + 4 * day))
        // A lock ends p1 at once; the second postback comes 24 to 144 h after.
        #expect(postbacks[1].windowEnd == first + 4 * day)
        #expect(postbacks[1].sendInterval == (first + 5 * day)...(first + 4 * day + 144 * hour))
        #expect(postbacks[2].reason == "no conversion value was set in p2: skan-mock answered none in that window")
    }

    @Test func tiersDecideWhatIsCarried() {
        let now = (first + 40 * day) * 1000
        let tier0 = PostbackSimulator.skan4(state(), tier: 0, now: now)
        #expect(tier0[0].status == .sentBy && tier0[0].fine == nil && tier0[0].coarse == nil)
        #expect(
            tier0[1].status == .neverSent
                && tier0[1].reason == "at crowd-anonymity tier 0 only the first postback is sent")
        let tier1 = PostbackSimulator.skan4(state(), tier: 1, now: now)
        #expect(tier1[0].fine == nil && tier1[0].coarse == 1 && tier1[1].coarse == 2)
        let tier2 = PostbackSimulator.skan4(state(), tier: 2, now: now)
        #expect(tier2[0].fine == 10 && tier2[0].coarse == nil && tier2[1].fine == nil && tier2[1].coarse == 2)
        #expect((0...3).map { PostbackSimulator.sourceIdentifierDigits(tier: $0) } == [2, 2, 3, 4])
        let apple = PostbackSimulator.appleJSON(tier2[1])
        #expect(
            apple["postback-sequence-index"] == 1 && apple["coarse-conversion-value"] == "high"
                && apple["conversion-value"] == nil)
        #expect(apple["source-identifier"] == "111")
    }

    @Test func anOpenWindowIsPendingWithWhatItWouldCarry() {
        let postbacks = PostbackSimulator.skan4(state(), tier: 2, now: (first + hour * 2) * 1000)
        #expect(postbacks[0].status == .pending && postbacks[0].fine == 10 && postbacks[0].sendInterval == nil)
        var never = WindowedDeviceState()
        never.firstCallSeconds = nil
        #expect(PostbackSimulator.skan4(never, tier: 2, now: 0).allSatisfy { $0.status == .neverSent })
    }

    @Test func skan3PostbackFollowsTheTimer() throws {
        var s = SKAN3DeviceState()
        s.lastValueReturned = 5
        s.lastRaisedMilliseconds = first * 1000
        let waiting = try #require(PostbackSimulator.skan3(s, now: (first + 23 * hour) * 1000))
        #expect(waiting.status == .pending && waiting.fine == 5)
        let sent = try #require(PostbackSimulator.skan3(s, now: (first + 25 * hour) * 1000))
        #expect(sent.status == .sentBy && sent.sendInterval == (first + day)...(first + 2 * day))
        #expect(PostbackSimulator.skan3(SKAN3DeviceState(), now: 0) == nil)
    }

    @Test func aValueMeansTheEntriesThatProduceIt() throws {
        let model = try loadModel(
            #"{"skan4":{"p0":{"entries":[{"fine":10,"coarse":1,"when":{"revenue":{"min":0.01}}},{"fine":20,"coarse":2,"when":{"revenue":{"min":10}}}]}}}"#
        )
        var postback = PostbackSimulator.skan4(state(), tier: 2, now: (first + 40 * day) * 1000)[0]
        let meaning = try #require(PostbackMeaning.skan4(postback, model: model))
        #expect(
            meaning.entries.count == 1 && meaning.entries[0]["index"] == 0
                && meaning.entries[0]["when"]?["revenue"]?["min"] == .double(0.01))
        #expect(meaning.finding == nil)
        postback.fine = 33
        let unknown = try #require(PostbackMeaning.skan4(postback, model: model))
        #expect(unknown.entries.isEmpty && unknown.finding?.code == .valueNotInModel)
    }

    /// A simulated device ages by sending an older first call instead of moving the clock: its
    /// windows (and so its postbacks) follow the first call it sent last.
    @Test func aDeviceThatSendsAnOlderFirstCallIsThatOld() throws {
        let (service, clock) = makeService(now: T0)
        _ = service.skan4(skan4Params(device: "SIM", first: T0))
        clock.advance(seconds: 60)
        _ = service.skan4(skan4Params(device: "SIM", first: T0 - 8 * day))
        let device = try #require(service.device("SIM"))
        #expect(device.skan4.firstCallSeconds == T0 - 8 * day)
        let postbacks = PostbackSimulator.skan4(device.skan4, tier: 3, now: (T0 + 60) * 1000)
        #expect(postbacks.map(\.status) == [.sentBy, .neverSent, .pending])
        #expect(postbacks[0].windowEnd == T0 - 6 * day)
    }

    /// iOS ignores updates after a lock, so a value the server answers after it (the client kept
    /// asking) does not reach the postback.
    @Test func aLockedWindowCarriesTheValueItWasLockedWith() throws {
        let model = try loadModel(
            #"{"skan4":{"p0":{"entries":[{"fine":5,"coarse":"high","lock":true,"when":{"event":{"name":"buy"}}},{"fine":7,"coarse":"low","when":{"event":{"name":"__SESSION__"}}}]}}}"#
        )
        let (service, clock) = makeService(model, now: T0)
        _ = service.skan4(skan4Params(device: "L", event: "buy"))
        clock.advance(seconds: 60)
        let after = service.skan4(
            skan4Params(device: "L", event: "__SESSION__", [("skan_current_conversion_value", "5")]))
        #expect(finding(after, .updateAfterWindowLock) != nil)
        let device = try #require(service.device("L"))
        #expect(device.skan4.lastReturned[0]?.fine == 7)
        let postbacks = PostbackSimulator.skan4(device.skan4, tier: 3, now: (T0 + 3 * day) * 1000)
        #expect(postbacks[0].status == .locked && postbacks[0].fine == 5)
        #expect(PostbackSimulator.skan4(device.skan4, tier: 1, now: (T0 + 3 * day) * 1000)[0].coarse == 2)
    }
}
