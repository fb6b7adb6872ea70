extension ConversionModel {
    /// Loads and checks a model file. `source` names the file in error messages. Every problem that
    /// can be found is collected, so one run of `skan-mock validate` shows them all; the error's
    /// description leads with the first.
    public static func parse(bytes: [UInt8], source: String) throws(ModelError) -> ConversionModel {
        // JSON text is UTF-8 (RFC 8259): a model with other bytes would show names and messages
        // that differ from what its author wrote, so it is refused where the bad byte is.
        if let offset = firstInvalidUTF8Offset(bytes) {
            let byte = String(bytes[offset], radix: 16, uppercase: true)
            throw ModelError(
                file: source,
                problems: [
                    ModelProblem(
                        path: "$",
                        reason:
                            "not UTF-8: byte 0x\(byte.count == 1 ? "0" + byte : byte) at byte offset \(offset) does not begin or continue a UTF-8 character"
                    )
                ])
        }
        let json: JSONValue
        do {
            json = try JSONParser.parse(bytes)
        } catch {
            throw ModelError(file: source, problems: [ModelProblem(path: "$", reason: error.description)])
        }
        return try parse(json: json, source: source)
    }

    public static func parse(text: String, source: String) throws(ModelError) -> ConversionModel {
        try parse(bytes: Array(text.utf8), source: source)
    }

    public static func parse(json: JSONValue, source: String) throws(ModelError) -> ConversionModel {
        var loader = ModelLoader()
        let model = loader.model(json, source: source)
        if let model, loader.problems.isEmpty { return model }
        throw ModelError(
            file: source,
            problems: loader.problems.isEmpty
                ? [ModelProblem(path: "$", reason: "invalid model")] : loader.problems)
    }
}

/// Walks the model document, checking every key against the format described by
/// `config/model.schema.json`. Unknown keys are errors so that a typo ("min_cout") is caught
/// instead of silently meaning "no condition".
struct ModelLoader {
    var problems: [ModelProblem] = []

    mutating func fail(_ path: String, _ reason: String) {
        problems.append(ModelProblem(path: path, reason: reason))
    }

    func child(_ path: String, _ key: String) -> String { CheckedJSON.child(path, key) }

    /// Runs one of `CheckedJSON`'s reads, keeping its problem (a model collects them all).
    mutating func read<T>(_ body: () throws(JSONProblem) -> T) -> T? {
        do {
            return try body()
        } catch {
            problems.append(ModelProblem(path: error.path, reason: error.reason))
            return nil
        }
    }

    /// The object's members by key with their paths, after rejecting duplicates and keys not in `allowed`.
    mutating func object(_ value: JSONValue, _ path: String, allowed: [String]) -> [String: (JSONValue, String)]? {
        let checked = CheckedJSON.checkMembers(value, path, allowed: allowed)
        for problem in checked.problems { fail(problem.path, problem.reason) }
        guard case .object = value else { return nil }
        return checked.members.reduce(into: [:]) { $0[$1.key] = ($1.value, child(path, $1.key)) }
    }

    mutating func integer(_ value: JSONValue, _ path: String, _ range: ClosedRange<Int64>, what: String = "an integer")
        -> Int64?
    {
        read { () throws(JSONProblem) in try CheckedJSON.integer(value, path, range, what: what) }
    }

    mutating func number(_ value: JSONValue, _ path: String, minimum: Double, exclusive: Bool) -> Double? {
        guard let d = value.doubleValue else {
            fail(path, "expected a number, found \(value.typeName) \(value)")
            return nil
        }
        if exclusive ? d <= minimum : d < minimum {
            fail(path, "\(value) must be \(exclusive ? "greater than" : "at least") \(JSONValue.double(minimum))")
            return nil
        }
        return d
    }

    mutating func string(_ value: JSONValue, _ path: String) -> String? {
        read { () throws(JSONProblem) in try CheckedJSON.string(value, path) }
    }

    mutating func bool(_ value: JSONValue, _ path: String) -> Bool? {
        read { () throws(JSONProblem) in try CheckedJSON.bool(value, path) }
    }

    mutating func choice<E: RawRepresentable & CaseIterable>(_ value: JSONValue, _ path: String, _: E.Type) -> E?
    where E.RawValue == String {
        let options = E.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")
        guard case .string(let s) = value else {
            fail(path, "expected \(options), found \(value.typeName) \(value)")
            return nil
        }
        guard let e = E(rawValue: s) else {
            fail(path, "\"\(s)\" is not one of \(options)")
            return nil
        }
        return e
    }

    mutating func currencyCode(_ value: JSONValue, _ path: String) -> String? {
        guard let s = string(value, path) else { return nil }
        guard Revenue.isCurrencyCode(s) else {
            fail(path, "\"\(s)\" is not a 3-letter upper-case currency code (ISO 4217, like USD)")
            return nil
        }
        return s
    }

    // MARK: the document

    mutating func model(_ json: JSONValue, source: String) -> ConversionModel? {
        guard
            let top = object(
                json, "$", allowed: ["$schema", "name", "description", "currency", "skan3", "skan4", "s2s", "faults"])
        else {
            return nil
        }
        var model = ConversionModel(name: source, source: source, json: json)
        if let (v, p) = top["name"], let s = string(v, p) {
            if s.isEmpty { fail(p, "the name is empty") } else { model.name = s }
        }
        if let (v, p) = top["description"] { model.modelDescription = string(v, p) }
        if let (v, p) = top["$schema"] { _ = string(v, p) }
        if let (v, p) = top["currency"] { model.currency = currency(v, p) }
        if let (v, p) = top["skan3"] { if let s = skan3(v, p) { model.skan3 = s } }
        if let (v, p) = top["skan4"], let windows = object(v, p, allowed: ["p0", "p1", "p2"]) {
            for n in 0..<3 {
                if let (w, wp) = windows["p\(n)"] { model.skan4[n] = ruleTable(w, wp, context: .skan4(n)) }
            }
        }
        if let (v, p) = top["s2s"], let s2s = object(v, p, allowed: ["launch", "evt"]) {
            if let (b, bp) = s2s["launch"], let flag = bool(b, bp) { model.s2sLaunch = flag }
            if let (b, bp) = s2s["evt"], let flag = bool(b, bp) { model.s2sEvent = flag }
        }
        if let (v, p) = top["faults"] { model.faults = faultRules(v, p) }
        return problems.isEmpty ? model : nil
    }

    mutating func currency(_ value: JSONValue, _ path: String) -> CurrencyRates {
        var rates = CurrencyRates()
        guard let o = object(value, path, allowed: ["base", "rates"]) else { return rates }
        if let (v, p) = o["base"], let code = currencyCode(v, p) { rates.base = code }
        if let (v, p) = o["rates"], case .object(let members) = v {
            var seen = Set<String>()
            for member in members {
                let mp = child(p, member.key)
                guard seen.insert(member.key).inserted else {
                    fail(mp, "duplicate key \"\(member.key)\"")
                    continue
                }
                guard Revenue.isCurrencyCode(member.key) else {
                    fail(mp, "\"\(member.key)\" is not a 3-letter upper-case currency code (ISO 4217, like USD)")
                    continue
                }
                guard let r = number(member.value, mp, minimum: 0, exclusive: true) else { continue }
                rates.rates[member.key] = r
            }
        } else if let (v, p) = o["rates"] {
            fail(p, "expected an object of currency code to rate, found \(v.typeName)")
        }
        if let r = rates.rates[rates.base], r != 1 {
            fail(
                child(child(path, "rates"), rates.base),
                "the base currency \(rates.base) must have rate 1 (or be left out)")
        }
        return rates
    }

    mutating func skan3(_ value: JSONValue, _ path: String) -> SKAN3Model? {
        guard let o = object(value, path, allowed: ["mode", "max", "when_exhausted", "combine", "entries"]) else {
            return nil
        }
        var mode = "increment"
        if let (v, p) = o["mode"], let s = string(v, p) {
            guard s == "increment" || s == "rules" else {
                fail(p, "\"\(s)\" is not one of \"increment\" or \"rules\"")
                return nil
            }
            mode = s
        }
        if mode == "increment" {
            for key in ["combine", "entries"] where o[key] != nil {
                fail(
                    o[key]!.1,
                    "\"\(key)\" belongs to \"mode\": \"rules\"; the increment mode takes max and when_exhausted")
            }
            var max: Int64 = 2
            var exhausted = ExhaustedAnswer.empty
            if let (v, p) = o["max"], let m = integer(v, p, 0...63) { max = m }
            if let (v, p) = o["when_exhausted"], let e = choice(v, p, ExhaustedAnswer.self) { exhausted = e }
            return .increment(max: max, whenExhausted: exhausted)
        }
        for key in ["max", "when_exhausted"] where o[key] != nil {
            fail(o[key]!.1, "\"\(key)\" belongs to \"mode\": \"increment\"; rules take combine and entries")
        }
        var table = RuleTable(combine: .last, entries: [])
        if let (v, p) = o["combine"], let c = choice(v, p, CombineMode.self) { table.combine = c }
        if let (v, p) = o["entries"] {
            table.entries = entries(v, p, context: .skan3)
        } else {
            fail(path, "\"mode\": \"rules\" needs \"entries\"")
        }
        return .rules(table)
    }

    enum TableContext: Equatable {
        case skan3
        case skan4(Int)
    }

    mutating func ruleTable(_ value: JSONValue, _ path: String, context: TableContext) -> RuleTable? {
        guard let o = object(value, path, allowed: ["combine", "entries", "default"]) else { return nil }
        var table = RuleTable(combine: .last, entries: [])
        if let (v, p) = o["combine"], let c = choice(v, p, CombineMode.self) { table.combine = c }
        if let (v, p) = o["entries"] {
            table.entries = entries(v, p, context: context)
        } else {
            fail(path, "a window needs \"entries\" (an empty list is fine)")
        }
        if let (v, p) = o["default"] { table.defaultAnswer = entry(v, p, context: context, isDefault: true) }
        return table
    }

    mutating func entries(_ value: JSONValue, _ path: String, context: TableContext) -> [ModelEntry] {
        guard case .array(let items) = value else {
            fail(path, "expected a list of entries, found \(value.typeName)")
            return []
        }
        var result: [ModelEntry] = []
        for (i, item) in items.enumerated() {
            if let e = entry(item, "\(path)[\(i)]", context: context, isDefault: false) { result.append(e) }
        }
        return result
    }

    mutating func entry(_ value: JSONValue, _ path: String, context: TableContext, isDefault: Bool) -> ModelEntry? {
        let allowed: [String]
        switch context {
        case .skan3: allowed = isDefault ? ["value"] : ["value", "when"]
        case .skan4: allowed = isDefault ? ["fine", "coarse", "lock"] : ["fine", "coarse", "lock", "when"]
        }
        guard let o = object(value, path, allowed: allowed) else { return nil }
        var e = ModelEntry()
        switch context {
        case .skan3:
            if let (v, p) = o["value"] {
                e.fine = integer(v, p, 0...63, what: "a conversion value")
            } else {
                fail(path, "a SKAN 3 entry needs \"value\" (0...63)")
            }
        case .skan4(let n):
            if let (v, p) = o["fine"] {
                if n == 0 {
                    e.fine = integer(v, p, 0...63, what: "a fine value")
                } else {
                    fail(
                        p,
                        "fine values are ignored by iOS after p0 (p\(n) answers the device's current fine value); use coarse and lock"
                    )
                }
            }
            if let (v, p) = o["coarse"] { e.coarse = coarse(v, p) }
            if let (v, p) = o["lock"], let b = bool(v, p) { e.lock = b }
            if o["fine"] == nil && o["coarse"] == nil && o["lock"] == nil {
                fail(path, n == 0 ? "an entry must set fine, coarse or lock" : "an entry must set coarse or lock")
            }
        }
        if let (v, p) = o["when"] { e.when = condition(v, p, context: context) }
        return e
    }

    mutating func coarse(_ value: JSONValue, _ path: String) -> Int64? {
        if case .string(let s) = value {
            if let named = CoarseValue.value(named: s) { return named }
            fail(path, "\"\(s)\" is not a coarse value: use 0, 1, 2 or \"low\", \"medium\", \"high\"")
            return nil
        }
        return integer(value, path, 0...2, what: "a coarse value (or \"low\", \"medium\", \"high\")")
    }

    mutating func condition(_ value: JSONValue, _ path: String, context: TableContext) -> ModelCondition {
        var c = ModelCondition()
        guard let o = object(value, path, allowed: ["event", "revenue", "days"]) else { return c }
        if let (v, p) = o["event"], let e = object(v, p, allowed: ["name", "min_count"]) {
            var name: String?
            var minCount = 1
            if let (nv, np) = e["name"], let s = string(nv, np) {
                if s.isEmpty { fail(np, "the event name is empty") } else { name = s }
            } else if e["name"] == nil {
                fail(p, "an event condition needs \"name\" (the n parameter, \"__SESSION__\" for sessions)")
            }
            if let (mv, mp) = e["min_count"], let m = integer(mv, mp, 1...1_000_000) { minCount = Int(m) }
            if let name { c.event = EventCondition(name: name, minCount: minCount) }
        }
        if let (v, p) = o["revenue"], let r = object(v, p, allowed: ["min", "max", "source", "period"]) {
            var cond = RevenueCondition(min: nil, max: nil, source: .both, period: .total)
            if let (mv, mp) = r["min"] { cond.min = number(mv, mp, minimum: 0, exclusive: false) }
            if let (mv, mp) = r["max"] { cond.max = number(mv, mp, minimum: 0, exclusive: true) }
            if let (sv, sp) = r["source"], let s = choice(sv, sp, RevenueSource.self) { cond.source = s }
            if let (sv, sp) = r["period"], let s = choice(sv, sp, RevenuePeriod.self) { cond.period = s }
            if r["min"] == nil && r["max"] == nil { fail(p, "a revenue condition needs \"min\", \"max\" or both") }
            if let lo = cond.min, let hi = cond.max, lo >= hi {
                fail(
                    child(p, "max"),
                    "max \(JSONValue.double(hi)) must be greater than min \(JSONValue.double(lo)) (the range is [min, max))"
                )
            }
            if context == .skan3 {
                if cond.source == .admon, let (_, sp) = r["source"] {
                    fail(
                        sp,
                        "SKAN 3 clients send only total_revenue_by_currency (in-app revenue); use \"iap\" or \"both\"")
                }
                if cond.period == .window, let (_, pp) = r["period"] {
                    fail(pp, "SKAN 3 has no measurement windows; use \"total\"")
                }
            }
            c.revenue = cond
        }
        if let (v, p) = o["days"], let d = object(v, p, allowed: ["min", "max"]) {
            var cond = DaysCondition(min: nil, max: nil)
            if let (mv, mp) = d["min"] { cond.min = integer(mv, mp, 0...100_000, what: "a number of days") }
            if let (mv, mp) = d["max"] { cond.max = integer(mv, mp, 0...100_000, what: "a number of days") }
            if d["min"] == nil && d["max"] == nil { fail(p, "a days condition needs \"min\", \"max\" or both") }
            if let lo = cond.min, let hi = cond.max, lo > hi {
                fail(child(p, "max"), "max \(hi) is below min \(lo) (both are inclusive)")
            }
            c.days = cond
        }
        return c
    }

    /// The allowed key nearest to a typo, when it is near enough to be a likely intent.
}

/// The offset of the first byte that is not part of valid UTF-8, or nil when all of it is.
func firstInvalidUTF8Offset(_ bytes: [UInt8]) -> Int? {
    var iterator = bytes.makeIterator()
    var decoder = UTF8()
    var offset = 0
    while true {
        switch decoder.decode(&iterator) {
        case .scalarValue(let scalar): offset += UTF8.width(scalar)
        case .emptyInput: return nil
        case .error: return offset
        }
    }
}
