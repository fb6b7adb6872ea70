import Testing

@testable import SKANDomain

/// Each condition kind on its own: a p0 model with one entry (fine 7) guarded by `when`.
@Suite struct ModelConditionTests {
    func model(_ when: String) throws -> ConversionModel {
        try loadModel(
            #"{"currency":{"base":"USD","rates":{"EUR":2,"KRW":0.001}},"skan4":{"p0":{"entries":[{"fine":7,"when":\#(when)}]}}}"#
        )
    }

    func matches(
        _ service: ConversionService, device: String = "IDFV-1", event: String = "__SESSION__",
        first: Int64 = T0, _ skan: [(String, String)] = []
    ) -> Bool {
        let body = service.skan4(skan4Params(device: device, event: event, first: first, skan)).bodyText
        if body == #"{"status":"ok"}"# { return false }
        #expect(body == #"{"status":"ok","conversion_value":7,"skan_updated_lock_window_value":false}"#)
        return true
    }

    @Test func emptyWhenAlwaysMatches() throws {
        let (service, _) = makeService(try model("{}"))
        #expect(matches(service))
    }

    @Test func eventMinCountCountsThisRequestPerDeviceAndWindow() throws {
        let (service, clock) = makeService(
            try loadModel(
                """
                {"skan4":{"p0":{"entries":[{"fine":7,"when":{"event":{"name":"level","min_count":2}}}]},
                          "p1":{"entries":[{"coarse":2,"when":{"event":{"name":"level","min_count":2}}}]}}}
                """))
        #expect(!matches(service, event: "level"))
        #expect(!matches(service, event: "__SESSION__"))
        #expect(matches(service, event: "level"))
        #expect(!matches(service, device: "other", event: "level"))
        // p1 counts afresh.
        clock.advance(seconds: 3 * day)
        #expect(service.skan4(skan4Params(event: "level")).bodyText == #"{"status":"ok"}"#)
        #expect(service.skan4(skan4Params(event: "level")).bodyText.contains(#""skan_updated_coarse_value":2"#))
    }

    @Test func defaultMinCountIsOne() throws {
        let (service, _) = makeService(try model(#"{"event":{"name":"purchase"}}"#))
        #expect(!matches(service, event: "level"))
        #expect(matches(service, event: "purchase"))
    }

    @Test func revenueRangeIsHalfOpen() throws {
        let (service, _) = makeService(try model(#"{"revenue":{"min":5,"max":10}}"#))
        func total(_ usd: String) -> [(String, String)] { [("skan_total_revenue_by_currency", #"{"USD":\#(usd)}"#)] }
        #expect(!matches(service, total("4.99")))
        #expect(matches(service, total("5")))
        #expect(matches(service, total("9.99")))
        #expect(!matches(service, total("10")))
        #expect(!matches(service))
    }

    @Test func revenueSources() throws {
        let iap = makeService(try model(#"{"revenue":{"min":10,"source":"iap"}}"#)).0
        let admon = makeService(try model(#"{"revenue":{"min":10,"source":"admon"}}"#)).0
        let both = makeService(try model(#"{"revenue":{"min":10}}"#)).0
        let split: [(String, String)] = [
            ("skan_total_revenue_by_currency", #"{"USD":4}"#),
            ("skan_total_admon_revenue_by_currency", #"{"USD":6}"#)
        ]
        #expect(!matches(iap, split))
        #expect(!matches(admon, split))
        #expect(matches(both, split))
        let adsOnly: [(String, String)] = [("skan_total_admon_revenue_by_currency", #"{"USD":10}"#)]
        #expect(!matches(iap, adsOnly))
        #expect(matches(admon, adsOnly))
        let short: [(String, String)] = [
            ("skan_total_revenue_by_currency", #"{"USD":4}"#),
            ("skan_total_admon_revenue_by_currency", #"{"USD":5.99}"#)
        ]
        #expect(!matches(both, short))
    }

    @Test func revenueThisWindowOrTotal() throws {
        let window = makeService(try model(#"{"revenue":{"min":10,"period":"window","source":"iap"}}"#)).0
        let total = makeService(try model(#"{"revenue":{"min":10,"period":"total","source":"iap"}}"#)).0
        let earlier: [(String, String)] = [
            ("skan_total_revenue_by_currency", #"{"USD":12}"#),
            ("p0_total_iap_revenue", #"{"USD":3}"#)
        ]
        #expect(!matches(window, earlier))
        #expect(matches(total, earlier))
        let now: [(String, String)] = [
            ("skan_total_revenue_by_currency", #"{"USD":12}"#),
            ("p0_total_iap_revenue", #"{"USD":10}"#)
        ]
        #expect(matches(window, now))
    }

    @Test func currencyConversion() throws {
        // Rates: EUR 2 USD, KRW 0.001 USD; threshold 10 USD.
        let (service, _) = makeService(try model(#"{"revenue":{"min":10}}"#))
        func total(_ json: String) -> [(String, String)] { [("skan_total_revenue_by_currency", json)] }
        #expect(matches(service, total(#"{"EUR":5}"#)))  // 10.0
        #expect(!matches(service, total(#"{"EUR":4.99}"#)))  // 9.98
        #expect(matches(service, total(#"{"USD":4,"EUR":3}"#)))  // 4 + 6
        #expect(matches(service, total(#"{"KRW":10000}"#)))  // 10.0
        #expect(!matches(service, total(#"{"KRW":9000,"USD":0.5}"#)))  // 9.0 + 0.5
        let unknown = service.skan4(skan4Params(total(#"{"GBP":100}"#)))  // no rate: 0
        #expect(unknown.bodyText == #"{"status":"ok"}"#)
        #expect(codes(unknown) == ["unknown_currency"])
        // iap and admon in different currencies add up in the base currency.
        #expect(
            matches(
                service,
                [
                    ("skan_total_revenue_by_currency", #"{"EUR":2}"#),
                    ("skan_total_admon_revenue_by_currency", #"{"KRW":6000}"#)
                ]))  // 4 + 6
    }

    @Test func currencyRatesConvert() {
        let rates = CurrencyRates(base: "EUR", rates: ["USD": 0.5])
        var unknown: [String] = []
        let total = rates.convert(Revenue([("EUR", 3), ("USD", 4), ("CHF", 1)])) { unknown.append($0) }
        #expect(total == 5)
        #expect(unknown == ["CHF"])
    }

    @Test func daysSinceFirstCallIsInclusive() throws {
        let (service, _) = makeService(try model(#"{"days":{"min":1,"max":1}}"#))
        #expect(!matches(service, first: T0 - day + 1))  // 23:59:59 ago: day 0
        #expect(matches(service, first: T0 - day))  // exactly 24 h: day 1
        #expect(matches(service, first: T0 - 2 * day + 1))
        #expect(!matches(service, first: T0 - 2 * day))  // day 2 (and p1: no p1 table)
    }

    @Test func allConditionsMustHold() throws {
        let (service, _) = makeService(
            try model(#"{"event":{"name":"purchase"},"revenue":{"min":1},"days":{"max":0}}"#))
        let paid: [(String, String)] = [("skan_total_revenue_by_currency", #"{"USD":1}"#)]
        #expect(matches(service, device: "a", event: "purchase", paid))
        #expect(!matches(service, device: "b", event: "level", paid))
        #expect(!matches(service, device: "c", event: "purchase"))
        #expect(!matches(service, device: "d", event: "purchase", first: T0 - day, paid))
    }
}

@Suite struct CombineModeTests {
    func entries(_ combine: String) -> String {
        """
        {"skan4":{"p0":{"combine":"\(combine)","entries":[
          {"fine":1,"when":{"event":{"name":"a"}}},
          {"fine":2,"when":{"event":{"name":"b"}}},
          {"fine":4,"coarse":1,"when":{"event":{"name":"c"}}},
          {"fine":8,"coarse":"high","lock":true,"when":{"revenue":{"min":1}}}
        ]}}}
        """
    }

    @Test func lastMatchingEntryWins() throws {
        let (service, _) = makeService(try loadModel(entries("last")))
        #expect(
            service.skan4(skan4Params(event: "a")).bodyText
                == #"{"status":"ok","conversion_value":1,"skan_updated_lock_window_value":false}"#)
        #expect(
            service.skan4(skan4Params(event: "b")).bodyText
                == #"{"status":"ok","conversion_value":2,"skan_updated_lock_window_value":false}"#)
        #expect(
            service.skan4(skan4Params(event: "c")).bodyText
                == #"{"status":"ok","conversion_value":4,"skan_updated_coarse_value":1,"skan_updated_lock_window_value":false}"#
        )
        #expect(
            service.skan4(skan4Params(event: "x", [("skan_total_revenue_by_currency", #"{"USD":1}"#)])).bodyText
                == #"{"status":"ok","conversion_value":8,"skan_updated_coarse_value":2,"skan_updated_lock_window_value":true}"#
        )
    }

    @Test func orCombinesEveryMatch() throws {
        let (service, _) = makeService(try loadModel(entries("or")))
        #expect(
            service.skan4(skan4Params(event: "a")).bodyText
                == #"{"status":"ok","conversion_value":1,"skan_updated_lock_window_value":false}"#)
        #expect(
            service.skan4(skan4Params(event: "b")).bodyText
                == #"{"status":"ok","conversion_value":3,"skan_updated_lock_window_value":false}"#)
        #expect(
            service.skan4(skan4Params(event: "c")).bodyText
                == #"{"status":"ok","conversion_value":7,"skan_updated_coarse_value":1,"skan_updated_lock_window_value":false}"#
        )
        #expect(
            service.skan4(skan4Params(event: "x", [("skan_total_revenue_by_currency", #"{"USD":1}"#)])).bodyText
                == #"{"status":"ok","conversion_value":15,"skan_updated_coarse_value":2,"skan_updated_lock_window_value":true}"#
        )
    }

    @Test func noMatchUsesTheDefaultElseNothingToUpdate() throws {
        let withDefault = makeService(
            try loadModel(
                #"{"skan4":{"p0":{"entries":[{"fine":5,"when":{"event":{"name":"a"}}}],"default":{"fine":0,"coarse":"low"}}}}"#
            )
        ).0
        #expect(
            withDefault.skan4(skan4Params()).bodyText
                == #"{"status":"ok","conversion_value":0,"skan_updated_coarse_value":0,"skan_updated_lock_window_value":false}"#
        )
        let without = makeService(
            try loadModel(#"{"skan4":{"p0":{"entries":[{"fine":5,"when":{"event":{"name":"a"}}}]}}}"#)
        ).0
        #expect(without.skan4(skan4Params()).bodyText == #"{"status":"ok"}"#)
        let noWindow = makeService(try loadModel(#"{"skan4":{"p0":{"entries":[{"fine":5}]}}}"#), now: T0 + 3 * day).0
        #expect(noWindow.skan4(skan4Params()).bodyText == #"{"status":"ok"}"#)
    }

    @Test func coarseOnlyEntryInP0KeepsTheCurrentFineValue() throws {
        let (service, _) = makeService(try loadModel(#"{"skan4":{"p0":{"entries":[{"coarse":1}]}}}"#))
        #expect(
            service.skan4(skan4Params([("skan_current_conversion_value", "12")])).bodyText
                == #"{"status":"ok","conversion_value":12,"skan_updated_coarse_value":1,"skan_updated_lock_window_value":false}"#
        )
    }
}
