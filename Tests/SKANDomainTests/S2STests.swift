import Testing

@testable import SKANDomain

@Suite struct S2STests {
    func s2s(_ service: ConversionService, _ endpoint: SKANEndpoint, _ params: [(String, String)]) -> SKANOutcome {
        service.handle(endpoint, request(endpoint, params))
    }

    let base: [(String, String)] = [("a", "KEY"), ("p", "iOS"), ("i", "com.example.app"), ("idfv", "IDFV-1")]

    @Test func missingArgumentsInSingularsOrder() {
        let (service, _) = makeService()
        #expect(s2s(service, .launch, []).bodyText == #"{"status":"error","reason":"missing argument: a"}"#)
        #expect(s2s(service, .launch, [("a", "K")]).bodyText == #"{"status":"error","reason":"missing argument: p"}"#)
        #expect(
            s2s(service, .launch, [("a", "K"), ("p", "ios")]).bodyText
                == #"{"status":"error","reason":"missing argument: i"}"#)
        let noIDFV = s2s(service, .launch, [("a", "K"), ("p", "IOS"), ("i", "app"), ("idfa", "X")])
        #expect(noIDFV.bodyText == #"{"status":"error","reason":"missing argument: idfv"}"#)
        #expect(
            noIDFV.findings == [
                ValidationFinding(param: "idfv", code: .missingParameter, message: "missing argument: idfv")
            ])
        // idfv is only required on iOS; elsewhere any device id will do, and none is Singular's error.
        #expect(
            s2s(service, .launch, [("a", "K"), ("p", "Android"), ("i", "app"), ("asid", "A")]).bodyText
                == #"{"status":"ok"}"#)
        #expect(s2s(service, .event, base).bodyText == #"{"status":"error","reason":"missing argument: n"}"#)
        #expect(s2s(service, .event, base + [("n", "purchase")]).bodyText == #"{"status":"ok"}"#)
        #expect(s2s(service, .launch, base).bodyText == #"{"status":"ok"}"#)
    }

    @Test func conversionValueOnlyWhenTheModelIsActiveForTheEndpoint() throws {
        let model = try loadModel(
            #"{"skan4":{"p0":{"entries":[{"fine":3,"coarse":1,"when":{"event":{"name":"__SESSION__"}}},{"fine":6,"when":{"event":{"name":"purchase"}}}]}},"s2s":{"launch":true,"evt":false}}"#
        )
        let (service, _) = makeService(model)
        let skan: [(String, String)] = [
            ("skan_first_call_to_skadnetwork_timestamp", String(T0)), ("skan_current_conversion_value", "0")
        ]
        // launch counts as a session.
        #expect(s2s(service, .launch, base + skan).bodyText == #"{"status":"ok","conversion_value":3}"#)
        #expect(s2s(service, .event, base + skan + [("n", "purchase")]).bodyText == #"{"status":"ok"}"#)
    }

    /// Issue 21: with the model's `s2s` off, a launch is answered `{"status":"ok"}` and no value;
    /// what the model would have computed must not become the device's p0 value, or a back end
    /// that forwards the device's real value in p1 gets a false `fine_value_changed_after_p0`.
    @Test func onlyValuesActuallyAnsweredBecomeDeviceState() throws {
        let model = try loadModel(
            #"{"skan4":{"p0":{"entries":[{"fine":2,"when":{"event":{"name":"__SESSION__"}}}]},"p1":{"entries":[{"coarse":1,"when":{"event":{"name":"__SESSION__"}}}]}},"s2s":{"launch":false,"evt":false}}"#
        )
        let (service, clock) = makeService(model)
        let skan: [(String, String)] = [
            ("skan_first_call_to_skadnetwork_timestamp", String(T0)), ("skan_current_conversion_value", "0")
        ]
        #expect(s2s(service, .launch, base + skan).bodyText == #"{"status":"ok"}"#)
        #expect(s2s(service, .launch, base + skan).bodyText == #"{"status":"ok"}"#)
        clock.advance(seconds: 176_400)  // 49 hours: p1
        let p1 = s2s(service, .launch, base + skan)
        #expect(p1.window == .p1)
        #expect(p1.bodyText == #"{"status":"ok"}"#)
        #expect(p1.findings == [])
        // The value the device really had in p0 is still held against it.
        let changed = s2s(
            service, .launch,
            base + [("skan_first_call_to_skadnetwork_timestamp", String(T0)), ("skan_current_conversion_value", "5")])
        #expect(changed.findings.map(\.code) == [.fineValueChangedAfterP0])
    }

    /// Android launches (issue 21): keyed by the ids Singular's S2S reference names, and a finding
    /// when there is none of any kind.
    @Test func androidDevicesAreKeyedByTheirIds() {
        let (service, _) = makeService()
        let android: [(String, String)] = [
            ("a", "K"), ("p", "Android"), ("i", "com.example.app"), ("install_ref", "utm_source=x")
        ]
        let withAIFA = s2s(service, .launch, android + [("andi", "ANDI-1"), ("asid", "ASID-1"), ("aifa", "AIFA-1")])
        #expect(withAIFA.device == "AIFA-1" && withAIFA.findings.isEmpty)
        #expect(s2s(service, .launch, android + [("andi", "ANDI-1"), ("asid", "ASID-1")]).device == "ASID-1")
        #expect(s2s(service, .launch, android + [("andi", "ANDI-1")]).device == "ANDI-1")
        let none = s2s(service, .launch, android)
        #expect(none.device == nil)
        #expect(none.bodyText == #"{"status":"error","reason":"no device ID supplied"}"#)
        #expect(none.status == 200)
        #expect(none.findings.map(\.code) == [.missingParameter])
        #expect(
            none.findings.first?.message.hasPrefix(
                "no device ID supplied: an Android request identifies the device by aifa") == true)
    }

    /// Singular answers a request it cannot tie to a device with an error (HTTP 200): a back end
    /// that forgot the id learns it here, not in production. On the web, a PC or a console the
    /// finding names Singular's own id, not Android's.
    @Test(arguments: ["Web", "PC", "metaquest", "nintendo"])
    func noDeviceIdIsSingularsErrorOnEveryPlatform(platform: String) throws {
        let (service, _) = makeService()
        let none = s2s(service, .event, [("a", "K"), ("p", platform), ("i", "app"), ("n", "buy")])
        #expect(none.bodyText == #"{"status":"error","reason":"no device ID supplied"}"#)
        let finding = try #require(none.findings.first)
        #expect(finding.param == "sdid" && finding.code == .missingParameter)
        #expect(finding.message.hasPrefix("no device ID supplied: a \(platform) request identifies the device by sdid"))
        #expect(!finding.message.contains("aifa"))
        let withID = s2s(service, .event, [("a", "K"), ("p", platform), ("i", "app"), ("n", "buy"), ("sdid", "S-1")])
        #expect(withID.bodyText == #"{"status":"ok"}"#)
    }

    /// Issue 50.12: Singular's S2S reference lists CTV (connected TV). It is taken on v1 launch,
    /// v1 evt and v2 evt, and, like PC and the consoles, identifies the device by `sdid`.
    @Test(arguments: [SKANEndpoint.launch, .event, .event2])
    func ctvIsAPlatformIdentifiedBySDID(endpoint: SKANEndpoint) throws {
        let (service, _) = makeService()
        let common: [(String, String)] = [("a", "K"), ("p", "CTV"), ("i", "com.example.tv"), ("n", "play")]
        let outcome = s2s(service, endpoint, common + [("sdid", "TV-1")])
        #expect(outcome.bodyText == #"{"status":"ok"}"#)
        #expect(outcome.device == "TV-1")
        #expect(!outcome.findings.contains { $0.code == .invalidPlatform })
        #expect(
            s2s(service, endpoint, [("a", "K"), ("p", "ctv"), ("i", "app"), ("n", "x"), ("sdid", "S")]).bodyText
                == #"{"status":"ok"}"#)
        // Without an id, Singular's own error, and the finding names sdid (not Android's aifa).
        let none = s2s(service, endpoint, common)
        let finding = try #require(none.findings.first)
        #expect(finding.param == "sdid" && finding.code == .missingParameter)
        #expect(none.bodyText.hasPrefix(#"{"status":"error","reason":"#))
    }

    /// Every platform real clients send is taken, in any case; anything else is Singular's
    /// `invalid platform` error, with a finding that lists the accepted ones.
    @Test func thePlatformIsChecked() throws {
        let (service, _) = makeService()
        for platform in [
            "iOS", "ios", "Android", "ANDROID", "Web", "PC", "pc", "xbox", "PlayStation", "nintendo", "metaquest"
        ] {
            let outcome = s2s(
                service, .launch, [("a", "K"), ("p", platform), ("i", "app"), ("idfv", "I"), ("sdid", "S")])
            #expect(outcome.bodyText == #"{"status":"ok"}"#, "\(platform)")
            #expect(!outcome.findings.contains { $0.code == .invalidPlatform })
        }
        let bad = s2s(service, .launch, [("a", "K"), ("p", "com.example.game"), ("i", "app"), ("sdid", "S")])
        #expect(bad.bodyText == #"{"status":"error","reason":"invalid platform: com.example.game"}"#)
        let finding = try #require(bad.findings.first { $0.code == .invalidPlatform })
        #expect(finding.param == "p")
        #expect(finding.message.contains("iOS, Android, Web, PC, CTV, Xbox, PlayStation, Nintendo, MetaQuest"))
        // A missing argument comes first, as in Singular's order.
        #expect(
            s2s(service, .launch, [("p", "com.example.game")]).bodyText
                == #"{"status":"error","reason":"missing argument: a"}"#)
    }

    /// On Singular's session endpoint `n` is the app's name (RudderStack sends the app name, Singular's
    /// Python sample n='Go Go Magnet!'): a launch counts as a session whatever its `n`.
    @Test func aLaunchIsASessionWhateverItsN() throws {
        let model = try loadModel(
            #"{"skan4":{"p0":{"entries":[{"fine":3,"when":{"event":{"name":"__SESSION__"}}}]}},"s2s":{"launch":true,"evt":true}}"#
        )
        let (service, _) = makeService(model)
        let skan: [(String, String)] = [
            ("skan_first_call_to_skadnetwork_timestamp", String(T0)), ("skan_current_conversion_value", "0")
        ]
        let launch = s2s(service, .launch, base + skan + [("n", "Go Go Magnet!")])
        #expect(launch.bodyText == #"{"status":"ok","conversion_value":3}"#)
        #expect(launch.event == "__SESSION__")
        #expect(s2s(service, .event, base + skan + [("n", "Go Go Magnet!")]).event == "Go Go Magnet!")
    }

    @Test func acceptsSKAN3Names() throws {
        let model = try loadModel(
            #"{"skan4":{"p0":{"entries":[{"fine":6,"when":{"event":{"name":"purchase"}}}]}},"s2s":{"launch":true,"evt":true}}"#
        )
        let (service, _) = makeService(model, now: T0 + hour)
        let o = s2s(
            service, .event,
            base + [
                ("n", "purchase"), ("skan_conversion_value", "2"),
                ("skan_first_call_timestamp", String(T0)), ("skan_last_call_timestamp", String(T0 + 10))
            ])
        #expect(o.bodyText == #"{"status":"ok","conversion_value":6}"#)
        #expect(o.window == .p0)
        #expect(o.skan.json == ["current_fine": 2, "first_call": .int(T0), "last_call": .int(T0 + 10)])
        #expect(o.findings == [])
        let bad = s2s(service, .event, base + [("n", "x"), ("skan_conversion_value", "70")])
        #expect(bad.findings.map(\.param) == ["skan_conversion_value"])
    }

    @Test func s2sEventsAreCountedApartFromTheConversionValueEndpoint() throws {
        let model = try loadModel(
            #"{"skan4":{"p0":{"entries":[{"fine":9,"when":{"event":{"name":"level","min_count":2}}}]}},"s2s":{"launch":true,"evt":true}}"#
        )
        let (service, _) = makeService(model)
        let skan: [(String, String)] = [("skan_first_call_to_skadnetwork_timestamp", String(T0))]
        // The app reports the same event to both: each side counts it once.
        #expect(service.skan4(skan4Params(event: "level")).bodyText == #"{"status":"ok"}"#)
        #expect(s2s(service, .event, base + skan + [("n", "level")]).bodyText == #"{"status":"ok"}"#)
        #expect(service.skan4(skan4Params(event: "level")).bodyText.contains(#""conversion_value":9"#))
        #expect(
            s2s(service, .event, base + skan + [("n", "level")]).bodyText == #"{"status":"ok","conversion_value":9}"#)
    }
}

@Suite struct DeviceStateTests {
    @Test func lruEvictsTheLeastRecentlyUsed() {
        var store = DeviceStateStore(capacity: 3)
        for key in ["a", "b", "c"] { store.set(key, DeviceState(nowMilliseconds: 0)) }
        #expect(store.keysByRecency == ["c", "b", "a"])
        _ = store.get("a")
        #expect(store.keysByRecency == ["a", "c", "b"])
        store.set("d", DeviceState(nowMilliseconds: 1))
        #expect(store.keysByRecency == ["d", "a", "c"])
        #expect(store.peek("b") == nil)
        #expect(store.count == 3)
        #expect(store.evicted == 1)
        // peek does not touch.
        _ = store.peek("c")
        store.set("e", DeviceState(nowMilliseconds: 2))
        #expect(store.keysByRecency == ["e", "d", "a"])
        // Updating an existing key touches it and does not evict.
        store.set("a", DeviceState(nowMilliseconds: 3))
        #expect(store.keysByRecency == ["a", "e", "d"])
        #expect(store.peek("a")?.firstSeenMilliseconds == 3)
        #expect(store.evicted == 2)
        store.removeAll()
        #expect(store.count == 0 && store.keysByRecency.isEmpty)
        store.set("z", DeviceState(nowMilliseconds: 0))
        #expect(store.keysByRecency == ["z"])
    }

    @Test func lruStaysConsistentUnderChurn() {
        var store = DeviceStateStore(capacity: 50)
        var reference: [String] = []  // most recent first
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<5_000 {
            let key = "d\(Int.random(in: 0..<120, using: &rng))"
            if Bool.random(using: &rng), store.get(key) != nil {
                reference.removeAll { $0 == key }
                reference.insert(key, at: 0)
            } else {
                store.set(key, DeviceState(nowMilliseconds: 0))
                reference.removeAll { $0 == key }
                reference.insert(key, at: 0)
                if reference.count > 50 { reference.removeLast() }
            }
        }
        #expect(store.keysByRecency == reference)
        #expect(store.count == reference.count)
    }

    @Test func serviceKeepsAtMostCapacityDevices() {
        let (service, _) = makeService(capacity: 2)
        for d in ["a", "b", "c"] { _ = service.skan4(skan4Params(device: d)) }
        #expect(service.deviceCount == 2)
        #expect(service.deviceState("a") == nil)
        #expect(service.deviceState("c") != nil)
        // "a" is forgotten: its next session is a first session again.
        #expect(service.skan4(skan4Params(device: "a")).bodyText.contains(#""conversion_value":1"#))
        service.resetDevices()
        #expect(service.deviceCount == 0)
    }

    @Test func deviceKeyPrefersIDFVThenSingThenIDFA() {
        let (service, _) = makeService()
        func device(_ p: [(String, String)]) -> String? {
            service.skan4([("n", "x"), ("skan_first_call_to_skadnetwork_timestamp", String(T0))] + p).device
        }
        #expect(device([("idfa", "A"), ("sing", "S"), ("idfv", "V")]) == "V")
        #expect(device([("idfa", "A"), ("sing", "S"), ("idfv", "")]) == "S")
        #expect(device([("idfa", "A"), ("sing", "")]) == "A")
        #expect(device([("idfa", "")]) == nil)
    }

    @Test func stateJSONShowsEventsPerWindowAndLastValues() throws {
        let (service, clock) = makeService()
        _ = service.skan4(skan4Params())
        _ = service.skan4(skan4Params(event: "level"))
        clock.advance(seconds: 3 * day)
        _ = service.skan4(skan4Params([("skan_current_conversion_value", "1")]))
        _ = service.skan3(skan3Params(value: "1"))
        let state = try #require(service.deviceState("IDFV-1"))
        #expect(state["device"] == "IDFV-1")
        #expect(state["requests"] == 4)
        #expect(state["first_seen"] == "2025-11-21T04:40:00.000Z")
        #expect(state["last_seen"] == "2025-11-24T04:40:00.000Z")
        #expect(
            state["skan4"]?["p0"] == [
                "events": ["__SESSION__": 1, "level": 1],
                "last_returned": ["fine": 1, "coarse": 0, "lock": false], "locked": false
            ])
        #expect(state["skan4"]?["p1"]?["events"] == ["__SESSION__": 1])
        #expect(state["skan4"]?["p1"]?["last_returned"] == ["fine": 1, "coarse": 0, "lock": false])
        #expect(state["skan4"]?["p0_fine"] == 1)
        #expect(state["skan3"] == ["events": ["__SESSION__": 1], "highest_value_sent": 1, "last_value_returned": 2])
    }

    @Test func distinctEventNamesAreBounded() {
        var counts: [String: Int] = [:]
        for n in 0..<1000 { DeviceState.count("e\(n)", in: &counts) }
        DeviceState.count("e0", in: &counts)
        #expect(counts.count == DeviceState.maximumDistinctEvents)
        #expect(counts["e0"] == 2)
    }
}
