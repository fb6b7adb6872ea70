/// Reads fault rules from JSON — the `faults` list of a model file or the body of
/// `PUT /__admin/faults` — with the same path-and-reason errors as the rest of the model:
///
/// ```json
/// {"endpoint": "skan4", "type": "delay", "delay_ms": [100, 500], "times": 3}
/// {"endpoint": "*", "type": "status", "status": 503, "probability": 0.25, "seed": 7}
/// {"endpoint": "skan3", "type": "malformed"}   // also "empty" and "drop"
/// ```
extension ModelLoader {
    mutating func faultRules(_ value: JSONValue, _ path: String) -> [FaultRule] {
        guard case .array(let items) = value else {
            fail(path, "expected a list of faults, found \(value.typeName)")
            return []
        }
        return items.enumerated().compactMap { index, item in faultRule(item, "\(path)[\(index)]") }
    }

    mutating func faultRule(_ value: JSONValue, _ path: String) -> FaultRule? {
        guard
            let o = object(
                value, path, allowed: ["endpoint", "type", "delay_ms", "status", "times", "probability", "seed"])
        else {
            return nil
        }
        let problemsBefore = problems.count
        var endpoint: SKANEndpoint?
        if let (v, p) = o["endpoint"], let name = string(v, p), name != "*" {
            endpoint = SKANEndpoint(routeName: name)
            if endpoint == nil {
                fail(
                    p,
                    "unknown endpoint \"\(name)\"; use skan3, skan4, launch, event (or evt), launch2, event2 (or evt2) or *"
                )
            }
        }
        guard let (typeValue, typePath) = o["type"] else {
            fail(path, "missing \"type\": delay, status, malformed, empty or drop")
            return nil
        }
        let type = string(typeValue, typePath)
        let allowedForType: [String: [String]] = [
            "delay": ["delay_ms"], "status": ["status"], "malformed": [], "empty": [], "drop": []
        ]
        guard let type, let own = allowedForType[type] else {
            if type != nil { fail(typePath, "unknown fault type; use delay, status, malformed, empty or drop") }
            return nil
        }
        for key in ["delay_ms", "status"] where o[key] != nil && !own.contains(key) {
            fail(child(path, key), "\"\(key)\" does not apply to a \(type) fault")
        }
        var kind: FaultRule.Kind
        switch type {
        case "delay":
            guard let (v, p) = o["delay_ms"] else {
                fail(path, "a delay fault needs \"delay_ms\": milliseconds, or [min, max]")
                return nil
            }
            if case .array(let bounds) = v {
                guard bounds.count == 2, let low = integer(bounds[0], "\(p)[0]", 0...600_000),
                    let high = integer(bounds[1], "\(p)[1]", 0...600_000)
                else {
                    if bounds.count != 2 { fail(p, "expected [min, max]") }
                    return nil
                }
                guard low <= high else {
                    fail(p, "min \(low) is greater than max \(high)")
                    return nil
                }
                kind = .delay(Int(low)...Int(high))
            } else {
                guard let ms = integer(v, p, 0...600_000) else { return nil }
                kind = .delay(Int(ms)...Int(ms))
            }
        case "status":
            guard let (v, p) = o["status"] else {
                fail(path, "a status fault needs \"status\": an HTTP status code")
                return nil
            }
            guard let code = integer(v, p, 100...599) else { return nil }
            kind = .status(Int(code))
        case "malformed": kind = .malformedBody
        case "empty": kind = .emptyBody
        default: kind = .dropConnection
        }
        var trigger = FaultRule.Trigger.always
        if let (v, p) = o["times"] {
            if o["probability"] != nil { fail(p, "use either \"times\" or \"probability\", not both") }
            if let count = integer(v, p, 1...1_000_000) { trigger = .next(Int(count)) }
        } else if let (v, p) = o["probability"] {
            let seed = o["seed"].flatMap { integer($0.0, $0.1, 0...Int64.max) } ?? 0
            if let probability = number(v, p, minimum: 0, exclusive: false) {
                if probability > 1 { fail(p, "\(probability) is not a probability (0...1)") }
                trigger = .probability(probability, seed: UInt64(seed))
            }
        } else if let (_, p) = o["seed"] {
            fail(p, "\"seed\" goes with \"probability\"")
        }
        return problems.count == problemsBefore ? FaultRule(endpoint: endpoint, kind: kind, trigger: trigger) : nil
    }
}

extension FaultRule {
    /// Parses `PUT /__admin/faults`: `{"faults": [...]}` or a bare list.
    public static func parseList(bytes: [UInt8], source: String) throws(ModelError) -> [FaultRule] {
        let json: JSONValue
        do {
            json = try JSONParser.parse(bytes)
        } catch {
            throw ModelError(file: source, problems: [ModelProblem(path: "$", reason: error.description)])
        }
        var loader = ModelLoader()
        var rules: [FaultRule] = []
        if case .array = json {
            rules = loader.faultRules(json, "$")
        } else if let o = loader.object(json, "$", allowed: ["faults"]) {
            if let (v, p) = o["faults"] {
                rules = loader.faultRules(v, p)
            } else {
                loader.fail("$", "missing \"faults\"")
            }
        }
        if !loader.problems.isEmpty { throw ModelError(file: source, problems: loader.problems) }
        return rules
    }
}
