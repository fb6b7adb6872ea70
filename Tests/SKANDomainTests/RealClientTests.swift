import Testing

@testable import SKANDomain

/// What real client code (an iOS SingularAdNetworkHelper, S2S forwarders) showed: faulted requests
/// leave no trace, S2S notifications carry locks without being told off, SDID-based S2S, the SDK key.
@Suite struct RealClientTests {
    let base: [(String, String)] = [("a", "KEY"), ("p", "iOS"), ("i", "com.example.app"), ("idfv", "IDFV-1")]

    @Test func aRequestNotCommittedLeavesTheDeviceAsItWas() {
        let (service, _) = makeService()
        let faulted = service.handle(.skan4, request(.skan4, skan4Params(device: "RETRY")), commit: false)
        #expect(faulted.bodyText.contains("\"conversion_value\":1"))
        #expect(service.deviceState("RETRY") == nil)
        _ = service.handle(.skan4, request(.skan4, skan4Params(device: "RETRY")), commit: false)
        // The retry gets the answer the faulted requests would have had: the first session's.
        let retry = service.skan4(skan4Params(device: "RETRY"))
        #expect(
            retry.bodyText
                == #"{"status":"ok","conversion_value":1,"skan_updated_coarse_value":0,"skan_updated_lock_window_value":false}"#
        )
        let state = service.deviceState("RETRY")
        #expect(state?["skan4"]?["p0"]?["events"]?["__SESSION__"]?.intValue == 1)
        #expect(state?["requests"]?.intValue == 1)
    }

    @Test func aNotCommittedSKAN3RequestDoesNotRaiseTheHighestValueSeen() {
        let (service, _) = makeService()
        _ = service.handle(.skan3, request(.skan3, skan3Params(value: "2")), commit: false)
        #expect(service.skan3(skan3Params(value: "1")).findings.isEmpty)
    }

    /// A back end forwarding the stored lock time on every session is reporting, not asking.
    @Test func s2sNotificationsForwardingALockHaveNoLockFinding() throws {
        let (service, _) = makeService(now: T0 + 3 * day)
        let skan: [(String, String)] = [
            ("skan_first_call_to_skadnetwork_timestamp", String(T0)), ("skan_current_conversion_value", "20"),
            ("p1_window_lock", String(T0 + 2 * day + hour))
        ]
        for endpoint in [SKANEndpoint.launch, .event] {
            let o = service.handle(endpoint, request(endpoint, base + skan + [("n", "purchase")]))
            #expect(o.bodyText == #"{"status":"ok"}"#)
            #expect(o.findings.isEmpty)
        }
        let strict = makeService(now: T0 + 3 * day, strict: true).0
        #expect(strict.handle(.launch, request(.launch, base + skan)).bodyText == #"{"status":"ok"}"#)
    }

    @Test func s2sThatAnswersValuesStillFlagsAnUpdateAfterALock() throws {
        let model = try loadModel(#"{"skan4":{"p1":{"entries":[{"coarse":1}]}},"s2s":{"launch":true,"evt":false}}"#)
        let (service, _) = makeService(model, now: T0 + 3 * day)
        let skan: [(String, String)] = [
            ("skan_first_call_to_skadnetwork_timestamp", String(T0)), ("p1_window_lock", String(T0 + 2 * day + hour))
        ]
        #expect(codes(service.handle(.launch, request(.launch, base + skan))) == ["update_after_window_lock"])
        // evt is not answered by this model: no finding there.
        #expect(codes(service.handle(.event, request(.event, base + skan + [("n", "x")]))).isEmpty)
    }

    @Test func sdidBasedS2SRequiresSdidAndKeysTheDeviceByIt() throws {
        let model = try loadModel(
            #"{"skan4":{"p0":{"entries":[{"fine":3,"when":{"event":{"name":"__SESSION__"}}},{"fine":6,"when":{"event":{"name":"purchase"}}}]}},"s2s":{"launch":true,"evt":true}}"#
        )
        let (service, _) = makeService(model)
        let identity: [(String, String)] = [("a", "KEY"), ("p", "iOS"), ("i", "com.example.app")]
        let skan: [(String, String)] = [("skan_first_call_to_skadnetwork_timestamp", String(T0))]
        let noSdid = service.handle(.launch2, request(.launch2, identity + [("idfv", "IDFV-1")] + skan))
        #expect(noSdid.bodyText == #"{"status":"error","reason":"missing argument: sdid"}"#)
        #expect(noSdid.findings.map(\.param) == ["sdid"])

        let sdid = ("sdid", "49c2d3a6-326e-4ec5-a16b-0a47e34ed953")
        let launch = service.handle(.launch2, request(.launch2, identity + [sdid] + skan))
        #expect(launch.bodyText == #"{"status":"ok","conversion_value":3}"#)
        #expect(launch.device == sdid.1)
        #expect(
            service.handle(.event2, request(.event2, identity + [sdid] + skan)).bodyText
                == #"{"status":"error","reason":"missing argument: n"}"#)
        // idfv and idfa are optional, and the device stays the sdid.
        let event = service.handle(
            .event2, request(.event2, identity + [sdid, ("idfv", "IDFV-9"), ("n", "purchase")] + skan))
        #expect(event.bodyText == #"{"status":"ok","conversion_value":6}"#)
        #expect(event.device == sdid.1 && event.findings.isEmpty)
        #expect(service.deviceState(sdid.1) != nil && service.deviceState("IDFV-9") == nil)
    }

    @Test func theSDKKeyIsRequiredOnConversionValueEndpoints() {
        let (service, _) = makeService()
        for endpoint in [SKANEndpoint.skan3, .skan4] {
            let params = (endpoint == .skan3 ? skan3Params() : skan4Params()).map { $0.0 == "a" ? ("a", "") : $0 }
            let o = service.handle(endpoint, request(endpoint, params))
            #expect(o.findings.map(\.code) == [.missingParameter])
            #expect(o.findings.first?.param == "a")
            #expect(o.status == 200 && !o.bodyText.contains("error"))
        }
        let strict = makeService(strict: true).0
        #expect(
            strict.skan4(skan4Params().filter { $0.0 != "a" }).bodyText.hasPrefix(
                #"{"status":"error","reason":"a (the SDK key)"#))
    }

    @Test func theDefaultModelAnswersRevenueInEveryWindow() {
        let (service, clock) = makeService()
        let revenue = { (n: Int) in
            [("p\(n)_total_iap_revenue", #"{"USD":0.99}"#), ("skan_total_revenue_by_currency", #"{"USD":0.99}"#)]
        }
        #expect(
            service.skan4(skan4Params(device: "R", event: "buy", revenue(0))).bodyText.contains(
                "\"skan_updated_coarse_value\":1"))
        clock.advance(seconds: 3 * day)
        #expect(
            service.skan4(skan4Params(device: "R", event: "buy", revenue(1))).bodyText.contains(
                "\"skan_updated_coarse_value\":1"))
        clock.advance(seconds: 7 * day)
        let p2 = service.skan4(skan4Params(device: "R", event: "buy", revenue(2)))
        #expect(p2.window == .p2)
        #expect(p2.bodyText.contains("\"skan_updated_coarse_value\":1,\"skan_updated_lock_window_value\":false"))
    }
}
