import Testing

@testable import SKANDomain

@Suite("Fault rules and injector")
struct FaultInjectorTests {
    @Test func appliesANextNRuleExactlyNTimesToItsEndpoint() {
        let injector = FaultInjector(rules: [FaultRule(endpoint: .skan4, kind: .status(503), trigger: .next(2))])
        #expect(injector.decide(for: .skan3).isEmpty)
        #expect(injector.decide(for: .skan4).answer == .status(503))
        #expect(injector.decide(for: .skan4).answer == .status(503))
        #expect(injector.decide(for: .skan4).isEmpty)
        #expect(injector.json == .array([]))
    }

    @Test func combinesADelayWithOneAnswerFault() {
        let injector = FaultInjector(rules: [
            FaultRule(endpoint: nil, kind: .delay(250...250)),
            FaultRule(endpoint: nil, kind: .emptyBody),
            FaultRule(endpoint: nil, kind: .malformedBody)
        ])
        let decision = injector.decide(for: .launch)
        #expect(decision.delayMilliseconds == 250)
        #expect(decision.answer == .emptyBody)
    }

    @Test func drawsTheSameSequenceFromTheSameSeed() {
        func sequence(seed: UInt64) -> [Bool] {
            let injector = FaultInjector(rules: [
                FaultRule(endpoint: nil, kind: .dropConnection, trigger: .probability(0.5, seed: seed))
            ])
            return (0..<40).map { _ in injector.decide(for: .skan3).answer != nil }
        }
        let first = sequence(seed: 42)
        #expect(first == sequence(seed: 42))
        #expect(first != sequence(seed: 43))
        #expect(first.contains(true) && first.contains(false))
    }

    @Test func keepsDelaysWithinTheirRange() {
        let injector = FaultInjector(rules: [FaultRule(endpoint: nil, kind: .delay(10...20))])
        for _ in 0..<50 {
            let delay = injector.decide(for: .skan4).delayMilliseconds ?? -1
            #expect((10...20).contains(delay))
        }
    }

    @Test func parsesTheDocumentedForms() throws {
        let rules = try FaultRule.parseList(
            bytes: Array(
                """
                {"faults": [
                  {"endpoint": "skan4", "type": "delay", "delay_ms": [100, 500], "times": 3},
                  {"endpoint": "*", "type": "status", "status": 503, "probability": 0.25, "seed": 7},
                  {"endpoint": "skan3", "type": "malformed"},
                  {"type": "empty"},
                  {"endpoint": "event", "type": "drop", "times": 1}
                ]}
                """.utf8), source: "test")
        #expect(
            rules == [
                FaultRule(endpoint: .skan4, kind: .delay(100...500), trigger: .next(3)),
                FaultRule(endpoint: nil, kind: .status(503), trigger: .probability(0.25, seed: 7)),
                FaultRule(endpoint: .skan3, kind: .malformedBody),
                FaultRule(endpoint: nil, kind: .emptyBody),
                FaultRule(endpoint: .event, kind: .dropConnection, trigger: .next(1))
            ])
        #expect(try FaultRule.parseList(bytes: Array("[]".utf8), source: "test").isEmpty)
    }

    @Test(arguments: [
        (#"{"faults": [{"endpoint": "skan5", "type": "drop"}]}"#, "$.faults[0].endpoint"),
        (#"{"faults": [{"type": "explode"}]}"#, "$.faults[0].type"),
        (#"{"faults": [{"type": "status", "status": 99}]}"#, "$.faults[0].status"),
        (#"{"faults": [{"type": "delay"}]}"#, "$.faults[0]"),
        (#"{"faults": [{"type": "delay", "delay_ms": [5, 1]}]}"#, "$.faults[0].delay_ms"),
        (#"{"faults": [{"type": "drop", "probability": 1.5}]}"#, "$.faults[0].probability"),
        (#"{"faults": [{"type": "drop", "times": 0}]}"#, "$.faults[0].times"),
        (#"{"faults": [{"type": "drop", "status": 500}]}"#, "$.faults[0].status"),
        (#"{"faults": [{"type": "drop", "tims": 2}]}"#, "$.faults[0].tims"),
        (#"{"fault": []}"#, "$.fault")
    ])
    func namesThePathOfABadRule(json: String, path: String) {
        do {
            _ = try FaultRule.parseList(bytes: Array(json.utf8), source: "test")
            Issue.record("accepted \(json)")
        } catch {
            #expect(error.path == path, "\(error.description)")
        }
    }
}
