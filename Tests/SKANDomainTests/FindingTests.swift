import Testing

@testable import SKANDomain

/// One test per finding code: the parameter it names, its code, and a message that says what is wrong.
@Suite struct FindingTests {
    @Test func cleanSnippetRequestHasNoFindings() {
        let (service, _) = makeService(now: T0 + hour)
        let o = service.skan4(
            skan4Params(
                first: T0,
                [
                    ("skan_current_conversion_value", "1"), ("prev_fine_value", "0"),
                    ("skan_last_call_to_skadnetwork_timestamp", String(T0 + 60)),
                    ("skan_total_revenue_by_currency", #"{"USD":1.2000000476837158}"#),
                    ("skan_total_admon_revenue_by_currency", "{}"),
                    ("p0_coarse", "0"), ("p0_prev_coarse_value", "0"),
                    ("p0_total_iap_revenue", #"{"USD":1.2000000476837158}"#)
                ]))
        #expect(o.findings == [])
    }

    @Test func missingParameter() {
        let (service, _) = makeService()
        let params = skan4Params().filter { !["n", "idfv", "idfa"].contains($0.0) }
        let o = service.skan4(params)
        #expect(o.findings.map(\.param) == ["n", "idfv"])
        #expect(o.findings.allSatisfy { $0.code == .missingParameter })
        #expect(o.findings[1].message.hasPrefix("no device id"))
    }

    @Test func invalidInteger() {
        let (service, _) = makeService()
        let o = service.skan4(skan4Params([("p0_coarse", "high"), ("skan_current_conversion_value", "3.0")]))
        #expect(o.findings.map(\.code) == [.invalidInteger, .invalidInteger])
        #expect(o.findings[0].param == "skan_current_conversion_value")
        #expect(o.findings[0].message == "skan_current_conversion_value \"3.0\" is not an integer")
        #expect(o.findings[1].message == "p0_coarse \"high\" is not an integer")
        // A value that does not parse stays out of the typed `skan` object.
        #expect(o.skan.json["current_fine"] == nil)
        #expect(o.skan.json["windows"] == nil)
    }

    @Test func fineValueOutOfRange() {
        let (service, _) = makeService()
        let o = service.skan4(skan4Params([("skan_current_conversion_value", "64"), ("prev_fine_value", "-1")]))
        #expect(o.findings.map(\.param) == ["skan_current_conversion_value", "prev_fine_value"])
        #expect(o.findings.allSatisfy { $0.code == .fineValueOutOfRange })
        #expect(
            o.findings[0].message
                == "skan_current_conversion_value 64 is outside 0...63, the range of a fine conversion value")
        #expect(o.skan.json["current_fine"] == 64)
    }

    @Test func coarseValueOutOfRange() {
        let (service, _) = makeService()
        let o = service.skan4(skan4Params([("p0_coarse", "3")]))
        #expect(
            o.findings == [
                ValidationFinding(
                    param: "p0_coarse", code: .coarseValueOutOfRange,
                    message: "p0_coarse 3 is outside 0...2 (0 low, 1 medium, 2 high)")
            ])
    }

    @Test func invalidRevenueJSON() {
        let (service, _) = makeService()
        let o = service.skan4(
            skan4Params([
                ("skan_total_revenue_by_currency", "{USD:1}"),
                ("skan_total_admon_revenue_by_currency", "[1]")
            ]))
        #expect(o.findings.map(\.code) == [.invalidRevenueJSON, .invalidRevenueJSON])
        #expect(
            o.findings[0].message.hasPrefix("skan_total_revenue_by_currency is not valid JSON (invalid JSON at byte 1"))
        #expect(
            o.findings[1].message.hasPrefix("skan_total_admon_revenue_by_currency is a JSON array; expected an object"))
        #expect(o.skan.json["total_revenue"] == nil)
    }

    @Test func invalidCurrencyCode() {
        let (service, _) = makeService()
        let o = service.skan4(skan4Params([("skan_total_revenue_by_currency", #"{"usd":1,"EURO":2,"GBP":3}"#)]))
        #expect(o.findings.map(\.code) == [.invalidCurrencyCode, .invalidCurrencyCode])
        #expect(
            o.findings[0].message
                == #"skan_total_revenue_by_currency key "usd" is not a 3-letter upper-case currency code (ISO 4217, like USD)"#
        )
        // The well-formed entry is kept.
        #expect(o.skan.json["total_revenue"] == ["GBP": 3])
    }

    @Test func invalidRevenueAmount() {
        let (service, _) = makeService()
        let o = service.skan4(skan4Params([("skan_total_revenue_by_currency", #"{"USD":-1,"EUR":"2","GBP":null}"#)]))
        #expect(o.findings.map(\.code) == [.invalidRevenueAmount, .invalidRevenueAmount, .invalidRevenueAmount])
        #expect(o.findings[0].message == "skan_total_revenue_by_currency USD is -1; revenue cannot be negative")
        #expect(o.findings[1].message == #"skan_total_revenue_by_currency EUR is a string ("2"); expected a number"#)
    }

    @Test func unknownCurrency() throws {
        let model = try loadModel(
            #"{"currency":{"base":"USD","rates":{"EUR":2}},"skan4":{"p0":{"entries":[{"fine":7,"when":{"revenue":{"min":1}}}]}}}"#
        )
        let (service, _) = makeService(model)
        let o = service.skan4(skan4Params([("skan_total_revenue_by_currency", #"{"JPY":1000,"EUR":1}"#)]))
        #expect(
            o.findings == [
                ValidationFinding(
                    param: "skan_total_revenue_by_currency", code: .unknownCurrency,
                    message:
                        "skan_total_revenue_by_currency has JPY, which the model has no exchange rate for (base USD); it counts as 0"
                )
            ])
        // EUR 1 = USD 2 still matches; JPY counted as 0.
        #expect(o.bodyText.contains(#""conversion_value":7"#))
    }

    @Test func timestampInMilliseconds() {
        let (service, _) = makeService()
        let o = service.skan4(skan4Params(first: 1_763_700_000_123))
        let f = finding(o, .timestampInMilliseconds)
        #expect(f?.param == "skan_first_call_to_skadnetwork_timestamp")
        #expect(
            f?.message
                == "skan_first_call_to_skadnetwork_timestamp 1763700000123 looks like milliseconds; SKAN timestamps are Unix seconds (1763700000)"
        )
        #expect(finding(o, .timestampInFuture) == nil)
    }

    @Test func timestampInFuture() {
        let (service, _) = makeService()
        let within = service.skan4(skan4Params([("skan_last_call_to_skadnetwork_timestamp", String(T0 + 300))]))
        #expect(within.findings == [])
        let o = service.skan4(skan4Params([("skan_last_call_to_skadnetwork_timestamp", String(T0 + hour))]))
        #expect(
            o.findings == [
                ValidationFinding(
                    param: "skan_last_call_to_skadnetwork_timestamp", code: .timestampInFuture,
                    message:
                        "skan_last_call_to_skadnetwork_timestamp 1763703600 is 60 min in the future (server time 2025-11-21T04:40:00.000Z)"
                )
            ])
    }

    @Test func timestampBefore2014() {
        let (service, _) = makeService()
        let o = service.skan3(skan3Params(value: "0", first: 0))
        let f = o.findings.filter { $0.code == .timestampBefore2014 }
        #expect(f.map(\.param) == ["first_call_to_skadnetwork_timestamp", "last_call_to_skadnetwork_timestamp"])
        #expect(
            f[0].message
                == "first_call_to_skadnetwork_timestamp 0 is before 2014, older than SKAdNetwork itself; 0 usually means it was never set (call registerAppForAdNetworkAttribution first)"
        )
        let late2013 = service.skan4(skan4Params(first: 1_388_534_399))
        #expect(
            finding(late2013, .timestampBefore2014)?.message
                == "skan_first_call_to_skadnetwork_timestamp 1388534399 is before 2014, older than SKAdNetwork itself")
        #expect(
            service.skan4(skan4Params(first: 1_388_534_400)).findings.filter { $0.code == .timestampBefore2014 } == [])
    }

    @Test func lastCallBeforeFirstCall() {
        let (service, _) = makeService()
        let o = service.skan4(
            skan4Params(first: T0 - 100, [("skan_last_call_to_skadnetwork_timestamp", String(T0 - 200))]))
        #expect(
            o.findings == [
                ValidationFinding(
                    param: "skan_last_call_to_skadnetwork_timestamp", code: .lastCallBeforeFirstCall,
                    message:
                        "skan_last_call_to_skadnetwork_timestamp 1763699800 is before skan_first_call_to_skadnetwork_timestamp 1763699900"
                )
            ])
    }

    @Test func windowNotBegun() {
        let (service, _) = makeService(now: T0 + 30 * hour)
        let o = service.skan4(skan4Params(first: T0, [("p1_coarse", "1"), ("p2_window_lock", String(T0))]))
        #expect(o.window == .p0)
        #expect(o.findings.map(\.param) == ["p1_coarse", "p2_window_lock"])
        #expect(o.findings.allSatisfy { $0.code == .windowNotBegun })
        #expect(
            o.findings[0].message
                == "p1_coarse was sent but the device is still in p0 (first call 30 h ago); p1 begins 2 d after the first call"
        )
    }

    @Test func windowLockOutsideWindow() {
        let (service, _) = makeService(now: T0 + 3 * day)
        let o = service.skan4(skan4Params(first: T0, [("p0_window_lock", String(T0 + 50 * hour))]))
        #expect(
            o.findings == [
                ValidationFinding(
                    param: "p0_window_lock", code: .windowLockOutsideWindow,
                    message:
                        "p0_window_lock 1763880000 is 2 d 2 h after the first call, outside p0 (0 s to 2 d after it)")
            ])
        let inside = service.skan4(skan4Params(first: T0, [("p0_window_lock", String(T0 + 47 * hour))]))
        #expect(inside.findings == [])
    }

    @Test func windowRevenueExceedsTotal() {
        let (service, _) = makeService()
        let o = service.skan4(
            skan4Params([
                ("skan_total_revenue_by_currency", #"{"USD":10}"#),
                ("p0_total_iap_revenue", #"{"USD":12.5,"EUR":1}"#),
                ("p0_total_admon_revenue", #"{"USD":0.5}"#)
            ]))
        #expect(o.findings.map(\.param) == ["p0_total_iap_revenue", "p0_total_iap_revenue", "p0_total_admon_revenue"])
        #expect(o.findings.allSatisfy { $0.code == .windowRevenueExceedsTotal })
        #expect(
            o.findings[0].message
                == "p0_total_iap_revenue has USD 12.5 but skan_total_revenue_by_currency has only USD 10.0; a window's revenue is part of the total"
        )
        #expect(
            o.findings[2].message
                == "p0_total_admon_revenue has USD 0.5 but skan_total_admon_revenue_by_currency is absent; a window's revenue is part of the total"
        )
        // Float rounding in the client is not an error.
        let rounding = service.skan4(
            skan4Params([
                ("skan_total_revenue_by_currency", #"{"USD":3.3}"#),
                ("p0_total_iap_revenue", #"{"USD":3.3000001}"#)
            ]))
        #expect(rounding.findings == [])
    }

    @Test func fineValueChangedAfterP0() {
        let (service, clock) = makeService(now: T0 + hour)
        // p0: the server answers 1 for the first session.
        let p0 = service.skan4(skan4Params(first: T0, [("skan_current_conversion_value", "0")]))
        #expect(p0.bodyText.contains(#""conversion_value":1"#))
        clock.set(seconds: T0 + 3 * day)
        let clean = service.skan4(skan4Params(first: T0, [("skan_current_conversion_value", "1")]))
        #expect(clean.findings == [])
        let changed = service.skan4(skan4Params(first: T0, [("skan_current_conversion_value", "5")]))
        #expect(
            changed.findings == [
                ValidationFinding(
                    param: "skan_current_conversion_value", code: .fineValueChangedAfterP0,
                    message:
                        "skan_current_conversion_value 5 differs from 1, the fine value this device had when p0 ended; iOS ignores fine values after p0, so keep sending the last p0 value"
                )
            ])
        // A device first met after p0: its first value is the baseline.
        let late = service.skan4(skan4Params(device: "late", first: T0, [("skan_current_conversion_value", "9")]))
        #expect(late.findings == [])
        let lateChanged = service.skan4(
            skan4Params(device: "late", first: T0, [("skan_current_conversion_value", "8")]))
        #expect(codes(lateChanged) == ["fine_value_changed_after_p0"])
    }

    @Test func skan3ValueDecreased() {
        let (service, _) = makeService()
        _ = service.skan3(skan3Params(value: "2"))
        let o = service.skan3(skan3Params(value: "1"))
        #expect(
            o.findings == [
                ValidationFinding(
                    param: "conversion_value", code: .skan3ValueDecreased,
                    message:
                        "conversion_value 1 is lower than 2, which this device sent before; SKAN 3 values never go down"
                )
            ])
        // Other devices are not affected.
        #expect(service.skan3(skan3Params(device: "other", value: "1")).findings == [])
    }

    @Test func updateAfterWindowLockSentByTheClient() {
        let (service, _) = makeService(now: T0 + hour)
        let o = service.skan4(skan4Params(first: T0, [("p0_window_lock", String(T0 + 60))]))
        #expect(o.findings.map(\.code) == [.updateAfterWindowLock])
        #expect(o.findings[0].param == "p0_window_lock")
        #expect(
            o.findings[0].message.hasPrefix(
                "p0_window_lock is set (1763700060): p0 was locked, so iOS ignores this update"))
    }

    @Test func updateAfterWindowLockRememberedByTheServer() {
        // The built-in model locks p2 once this window's revenue reaches 10 USD.
        let (service, _) = makeService(now: T0 + 10 * day)
        let revenue: [(String, String)] = [
            ("skan_total_revenue_by_currency", #"{"USD":12}"#), ("p2_total_iap_revenue", #"{"USD":12}"#)
        ]
        let locking = service.skan4(skan4Params(first: T0, revenue))
        #expect(
            locking.bodyText
                == #"{"status":"ok","conversion_value":0,"skan_updated_coarse_value":2,"skan_updated_lock_window_value":true}"#
        )
        #expect(locking.findings == [])
        let after = service.skan4(skan4Params(first: T0, revenue))
        #expect(after.findings.map(\.code) == [.updateAfterWindowLock])
        #expect(after.findings[0].message.hasPrefix("the server answered lock=true in p2 for this device"))
    }

    @Test func everyCodeIsCovered() {
        // Keeps this suite honest when a code is added.
        // upstream_unusable and upstream_loop: UpstreamAnswerTests (they need an upstream);
        // timestamp_impossible: AbsurdTimestampTests; invalid_platform: S2STests; postback_malformed and
        // postback_signature_invalid: ReceivedPostbackTests.
        #expect(FindingCode.allCases.count == 42)
    }
}

@Suite struct StrictModeTests {
    @Test func requestWithFindingsGetsTheFirstMessageAsError() {
        let (service, _) = makeService(strict: true)
        let o = service.skan4(skan4Params([("p0_coarse", "7"), ("prev_fine_value", "x")]))
        #expect(o.bodyText == #"{"status":"error","reason":"prev_fine_value \"x\" is not an integer"}"#)
        #expect(o.findings.count == 2)
    }

    @Test func cleanRequestIsAnsweredNormally() {
        let (service, _) = makeService(strict: true)
        #expect(
            service.skan4(skan4Params()).bodyText
                == #"{"status":"ok","conversion_value":1,"skan_updated_coarse_value":0,"skan_updated_lock_window_value":false}"#
        )
    }

    @Test func rejectedRequestDoesNotChangeDeviceState() {
        let (service, _) = makeService(strict: true)
        _ = service.skan4(skan4Params([("p0_coarse", "7")]))
        #expect(service.deviceState("IDFV-1") == nil)
        // The first accepted session is still the first: fine 1.
        #expect(service.skan4(skan4Params()).bodyText.contains(#""conversion_value":1"#))
    }
}
