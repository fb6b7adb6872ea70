import Testing

@testable import SKANDomain

/// Timestamps a client can send that no clock gives (nanoseconds, microseconds, the ends of Int64):
/// a finding, the value ignored, and no sum or product made from one ever traps.
@Suite("Absurd timestamps")
struct AbsurdTimestampTests {
    /// A real `time.time_ns()`, a microsecond clock, both ends of Int64 and the thresholds' neighbours.
    static let impossible: [Int64] = [
        1_789_000_000_123_456_789, 1_789_000_000_123_456, 9_200_000_000_000_000, Int64.max, Int64.max - 1,
        Int64.min, Int64.min + 1, ParameterReader.impossibleThreshold + 1, -ParameterReader.impossibleThreshold - 1
    ]

    @Test(arguments: impossible)
    func aFirstCallNoClockGivesIsAFindingAndIgnored(value: Int64) throws {
        let (service, _) = makeService()
        let outcome = service.skan4(skan4Params(device: "NS", first: value))
        let found = try #require(finding(outcome, .timestampImpossible))
        #expect(found.param == "skan_first_call_to_skadnetwork_timestamp")
        #expect(found.message.contains("\(value)"))
        #expect(outcome.status == 200)
        // Ignored: the device has no first call, so no window was chosen from it.
        #expect(service.device("NS")?.skan4.firstCallSeconds == nil)
    }

    @Test func theFindingSaysWhatTheValueWouldBeInSeconds() throws {
        let (service, _) = makeService()
        let ns = service.skan4(skan4Params(device: "NS", first: 1_789_000_000_123_456_789))
        #expect(
            try #require(finding(ns, .timestampImpossible)).message.contains("nanoseconds (Unix seconds 1789000000)"))
        let us = service.skan4(skan4Params(device: "US", first: 1_789_000_000_123_456))
        #expect(
            try #require(finding(us, .timestampImpossible)).message.contains("microseconds (Unix seconds 1789000000)"))
    }

    /// Milliseconds are still a time, the way they always were: kept, with their own finding.
    @Test func millisecondsAreStillKept() {
        let (service, _) = makeService()
        let outcome = service.skan4(skan4Params(device: "MS", first: T0 * 1000))
        #expect(codes(outcome).contains("timestamp_in_milliseconds"))
        #expect(!codes(outcome).contains("timestamp_impossible"))
        #expect(service.device("MS")?.skan4.firstCallSeconds == T0 * 1000)
    }

    /// Every timestamp parameter, on every endpoint that reads one.
    @Test func everyTimestampParameterIsChecked() {
        let (service, _) = makeService()
        let ns = "1789000000123456789"
        let skan4 = service.skan4(
            skan4Params(
                device: "A", first: T0,
                [("skan_last_call_to_skadnetwork_timestamp", ns), ("p0_window_lock", ns)]))
        #expect(
            skan4.findings.filter { $0.code == .timestampImpossible }.map(\.param).sorted() == [
                "p0_window_lock", "skan_last_call_to_skadnetwork_timestamp"
            ])
        let skan3 = service.skan3(skan3Params(device: "B", first: 1_789_000_000_123_456_789))
        #expect(skan3.findings.filter { $0.code == .timestampImpossible }.count == 2)  // first and last call
    }

    /// A state no request can make any more (an old journal, a future caller) still gives postbacks:
    /// absurd times stay absurd, pinned to Int64, never a trap.
    @Test(arguments: [Int64.max, Int64.min, Int64.max - 86_400, Int64.min + 1, 1_789_000_000_123_456_789])
    func postbacksOfAnAbsurdStateNeverTrap(value: Int64) {
        var state = WindowedDeviceState()
        state.firstCallSeconds = value
        state.lastReturned = [
            ModelAnswer(fine: 1, coarse: 2, lock: true), nil, ModelAnswer(fine: 3, coarse: 0, lock: false)
        ]
        state.lockedAtMilliseconds = [value, nil, Int64.min]
        for now in [Int64.min, 0, T0 * 1000, Int64.max] {
            for developerMode in [false, true] {
                var options = PostbackQuery()
                options.developerMode = developerMode
                let postbacks = PostbackSimulator.skan4(state, tier: 3, now: now, options: options)
                #expect(postbacks.count == 3)
                for postback in postbacks {
                    if let interval = postback.sendInterval {
                        #expect(interval.lowerBound <= interval.upperBound)
                        _ = RFC3339.format(seconds: interval.upperBound)
                    }
                    _ = postback.windowEnd.map { RFC3339.format(seconds: $0) }
                    _ = postback.reason
                }
            }
            var skan3 = SKAN3DeviceState()
            skan3.lastValueReturned = 2
            skan3.lastRaisedMilliseconds = value
            let postback = PostbackSimulator.skan3(skan3, now: now)
            #expect(postback?.windowEnd != nil)
        }
    }

    @Test func formattingSecondsPinsInsteadOfTrapping() {
        #expect(RFC3339.format(seconds: T0) == RFC3339.format(milliseconds: T0 * 1000))
        #expect(RFC3339.format(seconds: Int64.max) == RFC3339.format(milliseconds: Int64.max))
        #expect(RFC3339.format(seconds: Int64.min) == RFC3339.format(milliseconds: Int64.min))
    }

    /// Random timestamps of every size through the service and then the postbacks of the device
    /// they made (a fixed seed: the same 3,000 requests every run).
    @Test func fuzzedTimestampsNeverTrap() {
        var random = SplitMix64(seed: 0x5EED_0043)
        let (service, clock) = makeService()
        let names = [
            "skan_first_call_to_skadnetwork_timestamp", "skan_last_call_to_skadnetwork_timestamp",
            "p0_window_lock", "p1_window_lock", "p2_window_lock"
        ]
        for n in 0..<3000 {
            let device = "F\(n % 7)"
            var extra: [(String, String)] = []
            for name in names where random.next() % 2 == 0 {
                extra.append((name, String(random.timestamp())))
            }
            _ = service.skan4(skan4Params(device: device, first: nil, extra + [("p0_coarse", "2")]))
            _ = service.skan3(skan3Params(device: device, value: String(random.next() % 64), first: random.timestamp()))
            clock.advance(seconds: Int64(random.next() % 200_000))
            if n % 50 == 0, let state = service.device(device) {
                for tier in 0...3 {
                    var options = PostbackQuery()
                    options.developerMode = random.next() % 2 == 0
                    for postback in PostbackSimulator.skan4(
                        state.skan4, tier: tier, now: random.timestamp(), options: options)
                    {
                        _ = postback.sendInterval.map { RFC3339.format(seconds: $0.upperBound) }
                    }
                }
                _ = PostbackSimulator.skan3(state.skan3, now: random.timestamp())
            }
        }
        #expect(service.device("F0") != nil)
    }
}

/// A small seeded generator (SplitMix64): fuzz inputs that are the same on every run and platform.
struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A timestamp of any size: plausible seconds, milliseconds, nanoseconds or any Int64.
    mutating func timestamp() -> Int64 {
        switch next() % 5 {
        case 0: return T0 + Int64(next() % 4_000_000) - 2_000_000
        case 1: return T0 * 1000 + Int64(next() % 1000)
        case 2: return T0 * 1_000_000_000 + Int64(next() % 1_000_000_000)
        case 3: return [Int64.max, Int64.min, Int64.max - 1, Int64.min + 1, 0, -1][Int(next() % 6)]
        default: return Int64(bitPattern: next())
        }
    }
}
