import Testing

@testable import SKANDomain

/// Issue 40's rules on vectors, without sockets: a pending window's interval, a reinstall, the
/// app's coarse values and locks, the country, Developer Mode's tier, SKAN 3's app-set value.
@Suite("Postbacks, round 3")
struct PostbackRound3Tests {
    /// 40.2: an open window has the interval it will have if nothing else happens.
    @Test func aPendingWindowHasItsDeliveryInterval() {
        var s = WindowedDeviceState()
        s.firstCallSeconds = T0
        s.lastReturned[0] = ModelAnswer(fine: 10, coarse: 1, lock: false)
        s.lastReturned[1] = ModelAnswer(fine: nil, coarse: 2, lock: false)
        s.lockedAtMilliseconds[1] = (T0 + 4 * day) * 1000
        s.lockedValue[1] = s.lastReturned[1]
        let early = PostbackSimulator.skan4(s, tier: 3, now: (T0 + hour) * 1000)
        #expect(early[0].status == .pending && early[0].sendInterval == (T0 + 3 * day)...(T0 + 4 * day))
        // A lock ahead ends the window then: its interval runs from the lock.
        #expect(early[1].status == .pending && early[1].sendInterval == (T0 + 5 * day)...(T0 + 4 * day + 144 * hour))
        // A window with no value yet is never sent if nothing else happens: no interval.
        #expect(early[2].status == .pending && early[2].sendInterval == nil)
        var developer = PostbackQuery()
        developer.developerMode = true
        let minutes = PostbackSimulator.skan4(s, tier: 3, now: T0 * 1000, options: developer)
        #expect(minutes[0].sendInterval == (T0 + 8 * 60)...(T0 + 13 * 60))
    }

    /// 40.3: a newer first call for a known device is a new install: nothing old carried over,
    /// and its postbacks have other transaction-ids.
    @Test func aNewerFirstCallIsAReinstall() throws {
        let model = try loadModel(
            #"{"skan4":{"p0":{"entries":[{"fine":5,"coarse":"high","lock":true,"when":{"event":{"name":"buy"}}}]}}}"#)
        let (service, clock) = makeService(model, now: T0)
        _ = service.skan4(skan4Params(device: "R", event: "buy", first: T0, [("p1_coarse", "1")]))
        let old = try #require(service.device("R")).skan4
        let oldID = PostbackSimulator.appleJSON(PostbackSimulator.skan4(old, tier: 3, now: T0 * 1000)[0], device: "R")
        clock.advance(seconds: day)
        _ = service.skan4(skan4Params(device: "R", first: T0 + day, [("skan_current_conversion_value", "0")]))
        let new = try #require(service.device("R")).skan4
        #expect(new.firstCallSeconds == T0 + day && new.events[0]["buy"] == nil)
        #expect(new.lockedAtMilliseconds == [nil, nil, nil] && new.lastReturned == [nil, nil, nil])
        let postbacks = PostbackSimulator.skan4(new, tier: 3, now: (T0 + day) * 1000)
        #expect(postbacks[0].windowStart == T0 + day && postbacks[0].windowEnd == T0 + 3 * day)
        #expect(postbacks[0].status == .pending && postbacks[0].fine == 0)
        #expect(postbacks[1].coarse == nil)
        let newID = PostbackSimulator.appleJSON(postbacks[0], device: "R")
        #expect(newID["transaction-id"] != oldID["transaction-id"])
        // An older first call is a simulated device growing older, not a reinstall.
        _ = service.skan4(skan4Params(device: "R", event: "buy", first: T0 + day - 3 * day))
        #expect(try #require(service.device("R")).skan4.events[1]["buy"] == 1)
    }

    /// 40.4: the app's `pN_coarse` and `pN_window_lock` where the server answered none.
    @Test func theAppsCoarseValuesAndLocks() throws {
        let model = try loadModel(#"{"skan4":{"p0":{"entries":[{"fine":3}]}}}"#)
        let (service, _) = makeService(model, now: T0)
        _ = service.skan4(
            skan4Params(
                device: "A", first: T0 - 3 * day,
                [
                    ("skan_current_conversion_value", "5"), ("p0_coarse", "1"), ("p1_coarse", "2"),
                    ("p1_window_lock", String(T0 - hour)), ("p2_coarse", "7")
                ]))
        let state = try #require(service.device("A")).skan4
        let postbacks = PostbackSimulator.skan4(state, tier: 1, now: (T0 + 40 * day) * 1000)
        #expect(postbacks[0].coarse == 1 && postbacks[0].valueSource == .appReported)
        #expect(postbacks[1].status == .locked && postbacks[1].coarse == 2 && postbacks[1].windowEnd == T0 - hour)
        // Out of range: not a coarse value.
        #expect(postbacks[2].status == .neverSent)
        // The server's own answer wins over the app's report.
        var answered = state
        answered.lastReturned[1] = ModelAnswer(fine: nil, coarse: 0, lock: false)
        #expect(PostbackSimulator.skan4(answered, tier: 1, now: (T0 + 40 * day) * 1000)[1].coarse == 0)
    }

    /// 40.5: `country` is an ISO 3166-1 alpha-2 code, or a 400.
    @Test func countryIsAnAssignedCode() throws {
        #expect(try PostbackQuery.parse([(name: "country", value: "JP")]).get().country == "JP")
        for bad in ["ZZ", "jp", "J", "JPN", ""] {
            #expect(
                PostbackQuery.parse([(name: "country", value: bad)])
                    == .failure(
                        PostbackQuery.Failure(
                            parameter: "country",
                            message: "country must be an ISO 3166-1 alpha-2 country code in capitals, such as US or DE"
                        )))
        }
    }

    /// 40.1: development postbacks come at tier 3 unless a tier is asked for.
    @Test func developerModeDefaultsToTier3() throws {
        #expect(try PostbackQuery.parse([(name: "developer_mode", value: "true")]).get().tiers == [3])
        #expect(
            try PostbackQuery.parse([(name: "developer_mode", value: "true"), (name: "tier", value: "1")]).get().tiers
                == [1])
        #expect(try PostbackQuery.parse([(name: "developer_mode", value: "false")]).get().tiers == [0, 1, 2, 3])
    }

    /// 40.7: a SKAN 3 value the app set itself (its first request reports 2) is in the postback.
    @Test func aSKAN3ValueTheAppSetItself() throws {
        let (service, _) = makeService(now: T0)
        _ = service.skan3(skan3Params(device: "S", value: "2"))
        let state = try #require(service.device("S")).skan3
        let postback = try #require(PostbackSimulator.skan3(state, now: (T0 + 2 * day) * 1000))
        #expect(postback.status == .sentBy && postback.fine == 2)
        #expect(postback.sendInterval == (T0 + day)...(T0 + 2 * day))
    }
}
