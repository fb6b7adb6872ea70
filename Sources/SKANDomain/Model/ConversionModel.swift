/// How the entries of a window that match are combined into one answer.
public enum CombineMode: String, Sendable, CaseIterable {
    /// The last matching entry wins (entries go from least to most valuable).
    case last
    /// Bitwise OR of the fine values of every match, the highest coarse value, lock if any locks:
    /// for models where each bit means something (event bits, day bits).
    case or
}

/// What the SKAN 3 testing endpoint answers once the current value has reached `max`.
public enum ExhaustedAnswer: String, Sendable, CaseIterable {
    /// Status 200 with an empty body, like skadnetwork-testing.singular.net.
    case empty
    /// `{"status":"ok"}`: how the clients read "nothing to update".
    case statusOK = "status_ok"
}

/// One line of a window's table: the values to answer when `when` holds.
public struct ModelEntry: Sendable, Equatable {
    public var fine: Int64?
    public var coarse: Int64?
    public var lock: Bool
    public var when: ModelCondition

    public init(fine: Int64? = nil, coarse: Int64? = nil, lock: Bool = false, when: ModelCondition = ModelCondition()) {
        self.fine = fine
        self.coarse = coarse
        self.lock = lock
        self.when = when
    }
}

/// The values a model chose for one request.
public struct ModelAnswer: Sendable, Equatable {
    public var fine: Int64?
    public var coarse: Int64?
    public var lock: Bool
}

/// A window's (or SKAN 3's) ordered entries. When nothing matches, `defaultAnswer` is answered if
/// the model has one; otherwise there is nothing to update (`{"status":"ok"}`).
public struct RuleTable: Sendable, Equatable {
    public var combine: CombineMode
    public var entries: [ModelEntry]
    public var defaultAnswer: ModelEntry?

    public init(combine: CombineMode = .last, entries: [ModelEntry], defaultAnswer: ModelEntry? = nil) {
        self.combine = combine
        self.entries = entries
        self.defaultAnswer = defaultAnswer
    }

    /// Event names any entry counts, so device state only remembers what the model can ask about.
    var countedEvents: Set<String> { Set(entries.compactMap { $0.when.event?.name }) }

    func evaluate(_ context: inout EvaluationContext) -> ModelAnswer? {
        var answer: ModelAnswer?
        for (index, entry) in entries.enumerated() where entry.when.matches(&context) {
            switch combine {
            case .last:
                answer = ModelAnswer(fine: entry.fine, coarse: entry.coarse, lock: entry.lock)
                context.hits.replace(index)
            case .or:
                context.hits.add(index)
                var a = answer ?? ModelAnswer(fine: nil, coarse: nil, lock: false)
                if let f = entry.fine { a.fine = (a.fine ?? 0) | f }
                if let c = entry.coarse { a.coarse = Swift.max(a.coarse ?? c, c) }
                a.lock = a.lock || entry.lock
                answer = a
            }
        }
        if answer == nil, let d = defaultAnswer {
            answer = ModelAnswer(fine: d.fine, coarse: d.coarse, lock: d.lock)
            context.hits.add(entries.count)
        }
        return answer
    }
}

/// SKAN 3: the testing endpoint's increment, or rules.
public enum SKAN3Model: Sendable, Equatable {
    /// Answer current + 1 while current < `max`; then `whenExhausted`.
    case increment(max: Int64, whenExhausted: ExhaustedAnswer)
    /// Answer the rules' value, never below the current value (SKAN 3 values only go up).
    case rules(RuleTable)
}

/// A loaded, checked conversion model (SPEC 3). Immutable: the service swaps whole models on reload.
public struct ConversionModel: Sendable {
    public var name: String
    public var modelDescription: String?
    /// Where it came from (a file name, "built-in"), for messages and `/__admin/model`.
    public var source: String
    /// The document as written, keys in order, for `GET /__admin/model`.
    public var json: JSONValue
    public var currency: CurrencyRates
    public var skan3: SKAN3Model
    /// p0, p1, p2; nil where the model says nothing about a window (answered `{"status":"ok"}`).
    public var skan4: [RuleTable?]
    /// Whether `/api/v1/launch` and `/api/v1/evt` answer a conversion value.
    public var s2sLaunch: Bool
    public var s2sEvent: Bool
    /// Faults installed when the model loads (the `faults` list; see `FaultRuleParser`).
    public var faults: [FaultRule] = []

    public init(
        name: String, modelDescription: String? = nil, source: String, json: JSONValue = .object([]),
        currency: CurrencyRates = CurrencyRates(), skan3: SKAN3Model = .increment(max: 2, whenExhausted: .empty),
        skan4: [RuleTable?] = [nil, nil, nil], s2sLaunch: Bool = false, s2sEvent: Bool = false
    ) {
        self.name = name
        self.modelDescription = modelDescription
        self.source = source
        self.json = json
        self.currency = currency
        self.skan3 = skan3
        self.skan4 = skan4
        self.s2sLaunch = s2sLaunch
        self.s2sEvent = s2sEvent
    }

    /// Whether the endpoint answers a conversion value under this model (the S2S ones only when the
    /// model's `s2s` section says so; v1 and v2 share it).
    public func isActive(for endpoint: SKANEndpoint) -> Bool {
        switch endpoint {
        case .launch, .launch2: return s2sLaunch
        case .event, .event2: return s2sEvent
        case .skan3, .skan4: return true
        }
    }

    /// The event names the SKAN 3 rules and SKAN 4 windows count; others need no device state.
    var countedEvents: Set<String> {
        var names = Set<String>()
        if case .rules(let table) = skan3 { names.formUnion(table.countedEvents) }
        for table in skan4 { if let table { names.formUnion(table.countedEvents) } }
        return names
    }
}
