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
        let apple = PostbackSimulator.appleJSON(tier2[1], device: "D")
        #expect(
            apple["postback-sequence-index"] == 1 && apple["coarse-conversion-value"] == "high"
                && apple["conversion-value"] == nil)
        #expect(apple["source-identifier"] == "12")
    }

    @Test func anOpenWindowIsPendingWithWhatItWouldCarry() {
        let postbacks = PostbackSimulator.skan4(state(), tier: 2, now: (first + hour * 2) * 1000)
        // Pending, with the interval it will have if nothing else happens (issue 40.2).
        #expect(
            postbacks[0].status == .pending && postbacks[0].fine == 10
                && postbacks[0].sendInterval == (first + 3 * day)...(first + 4 * day))
        // The reason says when, as a date people read.
        #expect(
            postbacks[2].reason
                == "no conversion value set in p2 yet (the window is open until \(RFC3339.format(milliseconds: (first + 35 * day) * 1000)))"
        )
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

/// Issue 29's rules, one test each: what Apple's documentation says each postback carries.
@Suite("Postbacks as Apple sends them")
struct PostbackFieldRulesTests {
    let first: Int64 = 1_789_000_000
    let day: Int64 = 86_400
    var late: Int64 { (first + 40 * day) * 1000 }

    func state() -> WindowedDeviceState {
        var s = WindowedDeviceState()
        s.firstCallSeconds = first
        s.lastReturned = [
            ModelAnswer(fine: 10, coarse: 1, lock: false), ModelAnswer(fine: nil, coarse: 2, lock: false),
            ModelAnswer(fine: nil, coarse: 0, lock: false)
        ]
        return s
    }

    func apple(tier: Int, _ options: PostbackQuery = PostbackQuery()) -> [JSONValue] {
        PostbackSimulator.skan4(state(), tier: tier, now: late, options: options).map {
            PostbackSimulator.appleJSON($0, device: "D")
        }
    }

    /// 29.1: 2 digits in postbacks 2 and 3 and at tiers 0-1; the first postback at tiers 2 and 3
    /// has 3 and 4 by default, or what `digits` says.
    @Test func sourceIdentifierDigits() {
        #expect((0...3).map { apple(tier: $0)[0]["source-identifier"] } == ["12", "12", "123", "1234"])
        #expect(apple(tier: 3).map { $0["source-identifier"] } == ["1234", "12", "12"])
        var two = PostbackQuery()
        two.digits = 2
        #expect(apple(tier: 3, two)[0]["source-identifier"] == "12")
        two.digits = 3
        #expect(apple(tier: 3, two)[0]["source-identifier"] == "123")
        #expect(apple(tier: 1, two)[0]["source-identifier"] == "12")
    }

    /// 29.2: `source-app-id` in the tier-3 first postback only, and never for a network that lost.
    @Test func sourceAppIDOnlyInTheTier3FirstPostback() {
        #expect(apple(tier: 3).map { $0["source-app-id"] != nil } == [true, false, false])
        for tier in 0...2 { #expect(apple(tier: tier)[0]["source-app-id"] == nil) }
        var lost = PostbackQuery()
        lost.didWin = false
        #expect(apple(tier: 3, lost)[0]["source-app-id"] == nil)
    }

    /// 29.3: a UUID per postback and device, the same at every read.
    @Test func transactionIDsAreDistinctAndStable() {
        let ids = (0...3).flatMap { apple(tier: $0).compactMap { $0["transaction-id"]?.stringValue } }
        #expect(ids.count == 12 && Set(ids).count == 12)
        #expect(ids == (0...3).flatMap { apple(tier: $0).compactMap { $0["transaction-id"]?.stringValue } })
        let other = PostbackSimulator.skan4(state(), tier: 3, now: late).map {
            PostbackSimulator.appleJSON($0, device: "E")["transaction-id"]?.stringValue
        }
        #expect(other[0] != ids[9])
        let id = Array(ids[0].utf8)
        #expect(ids[0].matches(of: /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/).count == 1)
        #expect(id.count == 36)
    }

    /// 29.4: registration makes the first postback: the app's reported p0 value, else 0, and says which.
    @Test func aRegisteredDeviceGetsItsFirstPostback() {
        var s = WindowedDeviceState()
        s.firstCallSeconds = first
        var postbacks = PostbackSimulator.skan4(s, tier: 3, now: late)
        #expect(postbacks[0].status == .sentBy && postbacks[0].fine == 0 && postbacks[0].valueSource == .registration)
        s.p0Fine = 12
        postbacks = PostbackSimulator.skan4(s, tier: 3, now: late)
        #expect(postbacks[0].fine == 12 && postbacks[0].valueSource == .appReported)
        #expect(PostbackSimulator.skan4(state(), tier: 3, now: late)[0].valueSource == .answered)
        #expect(postbacks[1].status == .neverSent)
    }

    /// 29.5: SKAN 3 carries an integer campaign, and the value only where the threshold is met.
    @Test func skan3CarriesACampaignAndTheValueAboveTheThreshold() throws {
        var s = SKAN3DeviceState()
        s.lastValueReturned = 5
        s.lastRaisedMilliseconds = first * 1000
        let met = try #require(PostbackSimulator.skan3(s, now: late, tier: 2))
        let json = PostbackSimulator.skan3AppleJSON(met, device: "D")
        #expect(json["version"] == "3.0" && json["campaign-id"] == 42 && json["source-identifier"] == nil)
        #expect(json["conversion-value"] == 5 && json["source-app-id"] != nil)
        let notMet = PostbackSimulator.skan3AppleJSON(
            try #require(PostbackSimulator.skan3(s, now: late, tier: 0)), device: "D")
        #expect(notMet["conversion-value"] == nil && notMet["source-app-id"] == nil && notMet["campaign-id"] == 42)
    }

    /// 29.7: a network whose ad did not win: the first postback only, no value, `did-win: false`.
    @Test func aNonWinningNetworkGetsTheFirstPostbackWithoutValue() {
        var lost = PostbackQuery()
        lost.didWin = false
        let postbacks = PostbackSimulator.skan4(state(), tier: 3, now: late, options: lost)
        #expect(postbacks.map(\.status) == [.sentBy, .neverSent, .neverSent])
        #expect(postbacks[1].reason == "a network whose ad did not win gets the first postback only")
        let json = PostbackSimulator.appleJSON(postbacks[0], device: "D")
        #expect(json["did-win"] == false && json["conversion-value"] == nil && json["coarse-conversion-value"] == nil)
    }

    /// 29.8, 40.1: Developer Mode: windows of 0-3, 3-6 and 6-9 minutes, sent 5 to 10 minutes after,
    /// each holding the last answer the journal has in its minutes. Answered fine 1 at minute 0,
    /// fine 20 and coarse high at minute 4, fine 2 and coarse low at minute 7: the snippet filed
    /// them all under its 48-hour p0, iOS sends p0 fine 1, p1 high and p2 low.
    @Test func developerModeFilesTimedAnswersByTheMinute() {
        let minute: Int64 = 60
        func answered(_ id: Int64, at seconds: Int64, _ body: String, current: Int64) -> JournalRecord {
            JournalRecord(
                id: id, time: seconds * 1000, endpoint: .skan4, device: "DM",
                parameters: RequestParameters([
                    (name: "skan_first_call_to_skadnetwork_timestamp", value: String(first)),
                    (name: "skan_current_conversion_value", value: String(current))
                ]), response: JournalRecord.Answer(status: 200, body: Array(body.utf8)))
        }
        var windows = DeveloperModeWindows()
        windows.add(
            answered(
                1, at: first,
                #"{"status":"ok","conversion_value":1,"skan_updated_coarse_value":0,"skan_updated_lock_window_value":false}"#,
                current: 0))
        windows.add(
            answered(
                2, at: first + 4 * minute,
                #"{"status":"ok","conversion_value":20,"skan_updated_coarse_value":2,"skan_updated_lock_window_value":false}"#,
                current: 1))
        windows.add(
            answered(
                3, at: first + 7 * minute,
                #"{"status":"ok","conversion_value":2,"skan_updated_coarse_value":0,"skan_updated_lock_window_value":false}"#,
                current: 20))
        var developer = PostbackQuery()
        developer.developerMode = true
        let postbacks = PostbackSimulator.skan4(
            windows.state, tier: 3, now: (first + 20 * minute) * 1000, options: developer)
        #expect(postbacks.map(\.windowEnd) == [first + 3 * minute, first + 6 * minute, first + 9 * minute])
        #expect(postbacks[1].windowStart == first + 3 * minute)
        #expect(postbacks[2].sendInterval == (first + 14 * minute)...(first + 19 * minute))
        #expect(postbacks.map(\.status) == [.sentBy, .sentBy, .sentBy])
        #expect(postbacks[0].fine == 1 && postbacks[1].coarse == 2 && postbacks[2].coarse == 0)
        let apple = PostbackSimulator.appleJSON(postbacks[0], device: "DM")
        #expect(apple["source-app-id"] == 0 && apple["conversion-value"] == 1)
        let pending = PostbackSimulator.skan4(
            windows.state, tier: 3, now: (first + 4 * minute) * 1000, options: developer)
        #expect(pending.map(\.status) == [.sentBy, .pending, .pending])
        // A lock in p1 keeps p1's value, and ends p1 at the lock.
        var locked = DeveloperModeWindows()
        locked.add(
            answered(
                1, at: first + 4 * minute,
                #"{"status":"ok","conversion_value":0,"skan_updated_coarse_value":1,"skan_updated_lock_window_value":true}"#,
                current: 0))
        locked.add(
            answered(
                2, at: first + 5 * minute,
                #"{"status":"ok","conversion_value":0,"skan_updated_coarse_value":2,"skan_updated_lock_window_value":false}"#,
                current: 0))
        let afterLock = PostbackSimulator.skan4(
            locked.state, tier: 3, now: (first + 20 * minute) * 1000, options: developer)
        #expect(
            afterLock[1].status == .locked && afterLock[1].coarse == 1 && afterLock[1].windowEnd == first + 4 * minute)
    }
}
