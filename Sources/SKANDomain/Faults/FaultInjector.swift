import SystemPOSIX

/// The faults in force and their progress (requests left, random draws), behind one lock.
///
/// `decide` is called once per request: it returns what to do to that request, consuming a use of
/// each `next(N)` rule that applies and drawing from each probability rule's own generator, so the
/// sequence of faulted requests is reproducible from the seeds alone.
public final class FaultInjector: Sendable {
    /// What happens to one request. `delayMilliseconds` combines with at most one other fault, the
    /// first applicable rule that changes the answer.
    public struct Decision: Sendable, Equatable {
        public var delayMilliseconds: Int?
        public var answer: FaultRule.Kind?

        public var isEmpty: Bool { delayMilliseconds == nil && answer == nil }

        /// `{"delay_ms":...,"type":...}` for the journal entry of a faulted request.
        public var json: JSONValue {
            var members: [JSONMember] = []
            if let answer {
                members.append(JSONMember(JournalRecord.Field.type, .string(answer.name)))
                if case .status(let code) = answer {
                    members.append(JSONMember(JournalRecord.Field.status, .int(Int64(code))))
                }
            }
            if let delayMilliseconds {
                members.append(JSONMember(JournalRecord.Field.delayMilliseconds, .int(Int64(delayMilliseconds))))
            }
            return .object(members)
        }
    }

    private struct Active: Sendable {
        var rule: FaultRule
        var remaining: Int?
        var random: SeededRandom
    }

    private let active = Mutex<[Active]>([])
    /// Rules in force, read without the lock: most requests meet no fault at all.
    private let ruleCount = Atomic<Int>(0)

    public init(rules: [FaultRule] = []) { replace(with: rules) }

    /// Installs `rules`, dropping the ones in force (and their progress).
    public func replace(with rules: [FaultRule]) {
        let fresh = rules.enumerated().map { index, rule -> Active in
            switch rule.trigger {
            case .always: Active(rule: rule, remaining: nil, random: SeededRandom(seed: UInt64(index)))
            case .next(let count): Active(rule: rule, remaining: count, random: SeededRandom(seed: UInt64(index)))
            case .probability(_, let seed): Active(rule: rule, remaining: nil, random: SeededRandom(seed: seed))
            }
        }
        active.withLock { rules in
            rules = fresh
            ruleCount.store(fresh.count, ordering: .relaxed)
        }
    }

    public func clear() { replace(with: []) }

    /// The rules in force, with `remaining` for `next(N)` rules, as the admin API shows them.
    public var json: JSONValue {
        .array(
            active.withLock { rules in
                rules.map { active in
                    guard let remaining = active.remaining, case .object(var members) = active.rule.json else {
                        return active.rule.json
                    }
                    members.append(JSONMember("remaining", .int(Int64(remaining))))
                    return .object(members)
                }
            })
    }

    public func decide(for endpoint: SKANEndpoint) -> Decision {
        guard ruleCount.load(ordering: .relaxed) > 0 else { return Decision() }
        return active.withLock { rules in
            var decision = Decision()
            guard !rules.isEmpty else { return decision }
            for index in rules.indices {
                let rule = rules[index].rule
                if let only = rule.endpoint, only != endpoint { continue }
                let isDelay = if case .delay = rule.kind { true } else { false }
                if isDelay ? decision.delayMilliseconds != nil : decision.answer != nil { continue }
                switch rule.trigger {
                case .always:
                    break
                case .next:
                    guard let remaining = rules[index].remaining, remaining > 0 else { continue }
                    rules[index].remaining = remaining - 1
                case .probability(let probability, _):
                    guard rules[index].random.nextUnit() < probability else { continue }
                }
                if case .delay(let range) = rule.kind {
                    decision.delayMilliseconds =
                        range.lowerBound == range.upperBound
                        ? range.lowerBound
                        : range.lowerBound + Int(rules[index].random.next() % UInt64(range.count))
                } else {
                    decision.answer = rule.kind
                }
            }
            rules.removeAll { $0.remaining == 0 }
            ruleCount.store(rules.count, ordering: .relaxed)
            return decision
        }
    }
}
