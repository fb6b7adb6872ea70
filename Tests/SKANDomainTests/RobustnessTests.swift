import Testing

@testable import SKANDomain

/// Hostile or absurd input never traps: every integer parameter at the edges of Int64, on every endpoint.
@Suite struct RobustnessTests {
    static let names =
        [
            "conversion_value", "first_call_to_skadnetwork_timestamp", "last_call_to_skadnetwork_timestamp",
            "skan_current_conversion_value", "prev_fine_value", "skan_first_call_to_skadnetwork_timestamp",
            "skan_last_call_to_skadnetwork_timestamp", "skan_conversion_value", "skan_first_call_timestamp",
            "skan_last_call_timestamp"
        ] + (0..<3).flatMap { SKANWindowParameters.names($0).map(\.name) }

    @Test(arguments: [
        "9223372036854775807", "-9223372036854775808", "9223372036854775808", "-1", "0", "1e3", "{}", "{\"USD\":1e308}"
    ])
    func extremeValuesDoNotTrap(_ value: String) throws {
        let model = try loadModel(
            #"{"skan3":{"mode":"rules","entries":[{"value":3,"when":{"days":{"min":1},"revenue":{"min":1}}}]},"skan4":{"p0":{"entries":[{"fine":1,"when":{"days":{"max":1},"revenue":{"min":1}}}]},"p1":{"entries":[{"coarse":1,"when":{"days":{"min":2}}}]},"p2":{"entries":[{"coarse":2}]}},"s2s":{"launch":true,"evt":true}}"#
        )
        let (service, _) = makeService(model)
        let journal = Journal(clock: ManualClock(seconds: T0))
        let base: [(String, String)] = [
            ("a", "K"), ("p", "iOS"), ("i", "app"), ("idfv", "D"), ("n", "x"),
            ("skan_total_revenue_by_currency", value), ("p0_total_iap_revenue", value)
        ]
        for name in Self.names {
            for endpoint in SKANEndpoint.served {
                let req = request(
                    endpoint,
                    base + [("sdid", "S")] + [(name, value)] + [("skan_first_call_to_skadnetwork_timestamp", value)])
                let o = service.handle(endpoint, req)
                #expect(o.status == 200)
                journal.record(request: req, outcome: o, status: o.status, body: o.body, durationMicros: 0)
            }
        }
        #expect(journal.size == Self.names.count * SKANEndpoint.served.count)
        #expect(journal.query().entries.allSatisfy { $0.json != .null })
    }

    @Test func garbageParametersAreLoggedAsTheyCame() throws {
        let (service, _) = makeService()
        let journal = Journal(clock: ManualClock(seconds: T0))
        let weird = "\u{0}\u{1F}\"\\\n€😀\u{FFFD}"
        let req = request(
            .skan4, [(weird, weird), ("skan_total_revenue_by_currency", String(repeating: "[", count: 100_000))])
        let o = service.handle(.skan4, req)
        #expect(codes(o).contains("invalid_revenue_json"))
        journal.record(request: req, outcome: o, status: o.status, body: o.body, durationMicros: 0)
        let e = journal.query().entries[0].json
        #expect(e["params"]?[weird] == .string(weird))
    }
}
