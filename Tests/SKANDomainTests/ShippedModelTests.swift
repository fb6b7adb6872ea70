import Testing

@testable import SKANDomain

/// The models in config/, loaded from disk, each checked against answers worked out by hand.
@Suite struct ShippedModelTests {
    func load(_ name: String) throws -> ConversionModel {
        try ConversionModel.parse(bytes: try configFile(name), source: "config/\(name)")
    }

    func skan4Body(
        _ s: ConversionService, device: String = "D", event: String = "__SESSION__", first: Int64,
        _ skan: [(String, String)] = []
    ) -> String {
        s.skan4(skan4Params(device: device, event: event, first: first, skan)).bodyText
    }

    func skan3Value(
        _ s: ConversionService, device: String = "D", event: String = "__SESSION__", current: Int,
        first: Int64, revenue: String = "{}"
    ) -> String {
        let params = skan3Params(device: device, event: event, value: String(current), first: first)
            .map { $0.0 == "total_revenue_by_currency" ? ($0.0, revenue) : $0 }
            .map { $0.0 == "last_call_to_skadnetwork_timestamp" ? ($0.0, String(T0)) : $0 }
        return s.skan3(params).bodyText
    }

    func answer(_ fine: Int, _ coarse: Int?, _ lock: Bool = false) -> String {
        let c = coarse.map { #","skan_updated_coarse_value":\#($0)"# } ?? ""
        return #"{"status":"ok","conversion_value":\#(fine)\#(c),"skan_updated_lock_window_value":\#(lock)}"#
    }

    @Test func builtInIsTheSingularTestingFile() throws {
        let file = try load("singular-testing.json")
        #expect(file.json == ConversionModel.builtIn.json)
        #expect(
            String(decoding: try configFile("singular-testing.json"), as: UTF8.self) == ConversionModel.builtInText
                + "\n")
        #expect(file.name == "singular-testing")
    }

    @Test func singularTesting() throws {
        let (s, clock) = makeService(try load("singular-testing.json"))
        // SKAN 3: the testing endpoint.
        #expect(skan3Value(s, current: 0, first: T0) == #"{"conversion_value":1,"status":"ok"}"#)
        #expect(skan3Value(s, current: 2, first: T0) == "")
        // SKAN 4 p0: first session 1 (low), second 2 (low).
        #expect(skan4Body(s, first: T0) == answer(1, 0))
        #expect(skan4Body(s, first: T0) == answer(2, 0))
        // Any revenue: 10 (medium); 0.99 USD.
        #expect(
            skan4Body(s, event: "purchase", first: T0, [("skan_total_revenue_by_currency", #"{"USD":0.99}"#)])
                == answer(10, 1))
        // EUR 10 at 1.08 = 10.80 USD: 20 (high).
        #expect(
            skan4Body(s, event: "purchase", first: T0, [("skan_total_revenue_by_currency", #"{"EUR":10}"#)])
                == answer(20, 2))
        // KRW 13000 at 0.00072 = 9.36 USD: back to 10.
        #expect(
            skan4Body(
                s, device: "K", event: "purchase", first: T0, [("skan_total_revenue_by_currency", #"{"KRW":13000}"#)])
                == answer(10, 1))
        // p1 (3 days): session, no revenue in p1: low, fine = current.
        clock.advance(seconds: 3 * day)
        #expect(skan4Body(s, first: T0, [("skan_current_conversion_value", "20")]) == answer(20, 0))
        // p1 revenue 12 USD in this window: high.
        #expect(
            skan4Body(
                s, first: T0,
                [
                    ("skan_current_conversion_value", "20"), ("skan_total_revenue_by_currency", #"{"USD":20}"#),
                    ("p1_total_iap_revenue", #"{"USD":12}"#)
                ]) == answer(20, 2))
        // p2 (10 days): 10 USD this window: high and lock.
        clock.advance(seconds: 7 * day)
        #expect(
            skan4Body(
                s, device: "P2", first: T0,
                [
                    ("skan_total_revenue_by_currency", #"{"USD":10}"#),
                    ("p2_total_iap_revenue", #"{"USD":10}"#)
                ]) == answer(0, 2, true))
    }

    @Test func revenue() throws {
        let (s, _) = makeService(try load("revenue.json"))
        // SKAN 3: 4 USD is bucket 4 ([3, 5)); day 0: 4.
        #expect(
            skan3Value(s, current: 0, first: T0 - hour, revenue: #"{"USD":4}"#)
                == #"{"conversion_value":4,"status":"ok"}"#)
        // 12 USD: bucket 7 ([10, 15)); day 2: 2 << 4 = 32; 7 | 32 = 39.
        #expect(
            skan3Value(s, current: 4, first: T0 - 2 * day - hour, revenue: #"{"USD":12}"#)
                == #"{"conversion_value":39,"status":"ok"}"#)
        // KRW 20000 at 0.00072 = 14.40 USD: bucket 7; day 5: 3 << 4 = 48; 55.
        #expect(
            skan3Value(s, current: 0, first: T0 - 5 * day, revenue: #"{"KRW":20000}"#)
                == #"{"conversion_value":55,"status":"ok"}"#)
        // 250 USD and up: bucket 15; day 1: 16; 31.
        #expect(
            skan3Value(s, current: 0, first: T0 - day, revenue: #"{"USD":999}"#)
                == #"{"conversion_value":31,"status":"ok"}"#)
        // Never down: the rules say 39, the device has 60.
        #expect(
            skan3Value(s, current: 60, first: T0 - 2 * day - hour, revenue: #"{"USD":12}"#)
                == #"{"conversion_value":60,"status":"ok"}"#)
        // SKAN 4 p0, day 0: IAP 0.5 + ad revenue 0.6 = 1.1 USD: bucket 2 ([1, 2)), coarse medium.
        #expect(
            skan4Body(
                s, first: T0 - hour,
                [
                    ("skan_total_revenue_by_currency", #"{"USD":0.5}"#),
                    ("skan_total_admon_revenue_by_currency", #"{"USD":0.6}"#)
                ]) == answer(2, 1))
        // Day 1 (30 h): 300 USD, bucket 15 | 16 = 31; coarse max(high, low) = high.
        #expect(
            skan4Body(s, first: T0 - 30 * hour, [("skan_total_revenue_by_currency", #"{"USD":300}"#)]) == answer(31, 2))
        // Day 0, no revenue: nothing matches, the default 0 (low).
        #expect(skan4Body(s, device: "N", first: T0 - hour) == answer(0, 0))
        // p1: a session with 25 USD in total: high; the fine value stays the current one.
        #expect(
            skan4Body(
                s, device: "P1", first: T0 - 3 * day,
                [
                    ("skan_current_conversion_value", "7"),
                    ("skan_total_revenue_by_currency", #"{"USD":25}"#)
                ]) == answer(7, 2))
        // p2: 60 USD: high and lock.
        #expect(
            skan4Body(s, device: "P2", first: T0 - 8 * day, [("skan_total_revenue_by_currency", #"{"USD":60}"#)])
                == answer(0, 2, true))
        // S2S evt is active: 6 USD is bucket 5 ([5, 7.5)) on day 0.
        let evt = s.handle(
            .event,
            request(
                .event,
                [
                    ("a", "K"), ("p", "iOS"), ("i", "app"), ("idfv", "S"), ("n", "purchase"),
                    ("skan_first_call_timestamp", String(T0 - hour)),
                    ("skan_total_revenue_by_currency", #"{"USD":6}"#)
                ]))
        #expect(evt.bodyText == #"{"status":"ok","conversion_value":5}"#)
    }

    @Test func retention() throws {
        let (s, _) = makeService(try load("retention.json"))
        // SKAN 3: the value is the days since install.
        #expect(skan3Value(s, current: 0, first: T0 - hour) == #"{"conversion_value":0,"status":"ok"}"#)
        #expect(skan3Value(s, current: 0, first: T0 - 5 * day - hour) == #"{"conversion_value":5,"status":"ok"}"#)
        #expect(skan3Value(s, current: 0, first: T0 - 100 * day) == #"{"conversion_value":63,"status":"ok"}"#)
        #expect(skan3Value(s, current: 10, first: T0 - 5 * day) == #"{"conversion_value":10,"status":"ok"}"#)
        // SKAN 4 p0: day 0 is 0 (low), day 1 is 1 (medium).
        #expect(skan4Body(s, first: T0 - hour) == answer(0, 0))
        #expect(skan4Body(s, first: T0 - 25 * hour) == answer(1, 1))
        // p1: a session on day 4: medium; day 6: high.
        #expect(
            skan4Body(s, device: "A", first: T0 - 4 * day, [("skan_current_conversion_value", "1")]) == answer(1, 1))
        #expect(
            skan4Body(s, device: "B", first: T0 - 6 * day, [("skan_current_conversion_value", "1")]) == answer(1, 2))
        // p1: an event that is not a session on day 6: no entry matches.
        #expect(skan4Body(s, device: "C", event: "level", first: T0 - 6 * day) == #"{"status":"ok"}"#)
        // p2: a session on day 30: high and lock.
        #expect(skan4Body(s, device: "E", first: T0 - 30 * day) == answer(0, 2, true))
    }

    @Test func eventBits() throws {
        let (s, _) = makeService(try load("event-bits.json"))
        // SKAN 3: registration on day 0 is bit 0: 1; then tutorial_complete: 1 | 2 = 3.
        #expect(
            skan3Value(s, event: "registration", current: 0, first: T0 - hour)
                == #"{"conversion_value":1,"status":"ok"}"#)
        #expect(
            skan3Value(s, event: "tutorial_complete", current: 1, first: T0 - hour)
                == #"{"conversion_value":3,"status":"ok"}"#)
        // Purchase on day 3: 1 | 2 | 4 | 3 << 3 = 31.
        #expect(
            skan3Value(s, event: "purchase", current: 3, first: T0 - 3 * day)
                == #"{"conversion_value":31,"status":"ok"}"#)
        // A session on day 9: days 7+ is 56; 56 | 7 = 63.
        #expect(skan3Value(s, current: 31, first: T0 - 9 * day) == #"{"conversion_value":63,"status":"ok"}"#)
        // SKAN 4 p0: a session on day 0 matches nothing: the default 0, no coarse.
        #expect(skan4Body(s, first: T0 - hour) == answer(0, nil))
        #expect(skan4Body(s, event: "registration", first: T0 - hour) == answer(1, nil))
        #expect(skan4Body(s, event: "purchase", first: T0 - hour) == answer(5, nil))
        // Day 1 (25 h): 5 | 1 << 3 = 13; earlier p0 events still count.
        #expect(skan4Body(s, first: T0 - 25 * hour) == answer(13, nil))
        // p1: session low; registration medium; purchase high (OR: the highest coarse).
        #expect(skan4Body(s, device: "P1", first: T0 - 3 * day) == answer(0, 0))
        #expect(skan4Body(s, device: "P1", event: "registration", first: T0 - 3 * day) == answer(0, 1))
        #expect(skan4Body(s, device: "P1", event: "purchase", first: T0 - 3 * day) == answer(0, 2))
        // p2: purchase: high and lock.
        #expect(skan4Body(s, device: "P2", event: "purchase", first: T0 - 10 * day) == answer(0, 2, true))
        // S2S: evt active, launch not.
        let base: [(String, String)] = [
            ("a", "K"), ("p", "iOS"), ("i", "app"), ("idfv", "S"),
            ("skan_first_call_to_skadnetwork_timestamp", String(T0 - hour))
        ]
        #expect(
            s.handle(.event, request(.event, base + [("n", "purchase")])).bodyText
                == #"{"status":"ok","conversion_value":4}"#)
        #expect(s.handle(.launch, request(.launch, base)).bodyText == #"{"status":"ok"}"#)
    }

    @Test func schemaFileIsValidJSON() throws {
        let schema = try JSONParser.parse(try configFile("model.schema.json"))
        #expect(schema["$schema"] == "https://json-schema.org/draft/2020-12/schema")
        #expect(schema["properties"]?["skan4"] != nil)
    }
}
