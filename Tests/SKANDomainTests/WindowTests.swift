import Testing

@testable import SKANDomain

@Suite struct WindowTests {
    /// Time since the first call and its window. Typed here, not a literal in `@Test(arguments:)`:
    /// Swift 6.0 cannot type-check that literal in reasonable time.
    static let edgeCases: [(Int64, SKANWindow)] = [
        (0, .p0), (48 * hour - 1, .p0), (48 * hour, .p1),
        (7 * day - 1, .p1), (7 * day, .p2), (35 * day - 1, .p2), (35 * day, .over), (400 * day, .over),
        (-hour, .p0)
    ]

    @Test(arguments: edgeCases)
    func edges(_ elapsed: Int64, _ expected: SKANWindow) {
        #expect(SKANWindow.at(firstCallSeconds: T0, nowMilliseconds: (T0 + elapsed) * 1000) == expected)
    }

    @Test func millisecondsBelowTheEdgeStillCountAsTheEarlierWindow() {
        #expect(SKANWindow.at(firstCallSeconds: T0, nowMilliseconds: (T0 + 48 * hour) * 1000 - 1) == .p0)
        #expect(SKANWindow.at(firstCallSeconds: T0, nowMilliseconds: (T0 + 48 * hour) * 1000) == .p1)
    }

    @Test func serviceAnswersPerWindowAtTheEdges() {
        let (service, clock) = makeService()
        let params = skan4Params(first: T0, [("skan_current_conversion_value", "2")])
        clock.set(seconds: T0 + 48 * hour - 1)
        #expect(service.skan4(params).window == .p0)
        clock.set(seconds: T0 + 48 * hour)
        let p1 = service.skan4(params)
        #expect(p1.window == .p1)
        // p1: the fine value is the device's current one; the built-in model gives coarse low for a session.
        #expect(
            p1.bodyText
                == #"{"status":"ok","conversion_value":2,"skan_updated_coarse_value":0,"skan_updated_lock_window_value":false}"#
        )
        clock.set(seconds: T0 + 7 * day)
        #expect(service.skan4(params).window == .p2)
        clock.set(seconds: T0 + 35 * day)
        let over = service.skan4(params)
        #expect(over.window == .over)
        #expect(over.bodyText == #"{"status":"ok"}"#)
    }

    @Test func noFirstCallMeansNoWindow() {
        let (service, _) = makeService()
        let o = service.skan4(skan4Params(first: nil))
        #expect(o.window == nil)
        #expect(o.bodyText == #"{"status":"ok"}"#)
        #expect(finding(o, .missingParameter)?.param == "skan_first_call_to_skadnetwork_timestamp")
    }
}
