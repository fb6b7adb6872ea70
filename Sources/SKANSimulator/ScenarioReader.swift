import SKANDomain

/// Turns a parsed scenario document into typed steps, naming the JSON path of the first problem.
struct ScenarioReader {
    let file: String

    func scenario(_ root: JSONValue) throws(ScenarioError) -> SimulationScenario {
        let members = try object(
            root, "$", allowed: ["$schema", "name", "description", "device", "app", "s2s", "steps"])
        let name =
            try members["name"].map { v throws(ScenarioError) in try nonEmptyString(v, "$.name") }
            ?? SimulationScenario.baseName(file)
        let description = try members["description"].map { v throws(ScenarioError) in try string(v, "$.description") }
        let device = try members["device"].map { v throws(ScenarioError) in try nonEmptyString(v, "$.device") }
        let s2s = try members["s2s"].map { v throws(ScenarioError) in try bool(v, "$.s2s") } ?? false
        guard let stepsValue = members["steps"] else { throw fail("$", "missing \"steps\" (an array of steps)") }
        guard let items = stepsValue.arrayValue else {
            throw fail("$.steps", "expected an array, found \(stepsValue.typeName)")
        }
        var steps: [SimulationStep] = []
        for (index, item) in items.enumerated() {
            steps.append(try step(item, "$.steps[\(index)]"))
        }
        var scenario = SimulationScenario(name: name, description: description, device: device, s2s: s2s, steps: steps)
        if let app = members["app"] { scenario.app = try self.app(app, "$.app") }
        return scenario
    }

    private func app(_ value: JSONValue, _ path: String) throws(ScenarioError) -> SimulatedApp {
        let members = try object(value, path, allowed: ["api_key", "bundle", "version", "os_version", "idfa"])
        var app = SimulatedApp()
        if let v = members["api_key"] { app.apiKey = try string(v, path + ".api_key") }
        if let v = members["bundle"] { app.bundle = try string(v, path + ".bundle") }
        if let v = members["version"] { app.version = try string(v, path + ".version") }
        if let v = members["os_version"] { app.osVersion = try string(v, path + ".os_version") }
        if let v = members["idfa"] { app.idfa = try string(v, path + ".idfa") }
        return app
    }

    private func step(_ value: JSONValue, _ path: String) throws(ScenarioError) -> SimulationStep {
        let kinds = ["register", "session", "event", "revenue", "advance"]
        guard let members = value.objectValue else {
            throw fail(path, "expected an object with one of \(kinds.joined(separator: ", ")), found \(value.typeName)")
        }
        guard members.count == 1, let member = members.first else {
            throw fail(
                path, "a step has exactly one key, one of \(kinds.joined(separator: ", ")); found \(members.count)")
        }
        let inner = path + "." + member.key
        switch member.key {
        case "register":
            _ = try object(member.value, inner, allowed: [])
            return .register
        case "session":
            _ = try object(member.value, inner, allowed: [])
            return .session
        case "event":
            return .event(try nonEmptyString(member.value, inner))
        case "revenue":
            let fields = try object(member.value, inner, allowed: ["amount", "currency", "admon"])
            guard let amountValue = fields["amount"] else { throw fail(inner, "missing \"amount\"") }
            guard let amount = amountValue.doubleValue else {
                throw fail(inner + ".amount", "expected a number, found \(amountValue.typeName)")
            }
            guard let currencyValue = fields["currency"] else {
                throw fail(inner, "missing \"currency\" (e.g. \"USD\")")
            }
            let currency = try nonEmptyString(currencyValue, inner + ".currency")
            let admon = try fields["admon"].map { v throws(ScenarioError) in try bool(v, inner + ".admon") } ?? false
            return .revenue(amount: amount, currency: currency, admon: admon)
        case "advance":
            if let seconds = member.value.intValue {
                guard seconds >= 0 else { throw fail(inner, "the clock only moves forward; \(seconds) is negative") }
                return .advance(seconds: seconds)
            }
            guard let text = member.value.stringValue else {
                throw fail(inner, "expected seconds or a duration such as \"49h\", found \(member.value.typeName)")
            }
            guard let seconds = SimulationDuration.seconds(text) else {
                throw fail(
                    inner,
                    "'\(text)' is not a duration: use seconds or a number with s, m, h or d (\"90\", \"30m\", \"49h\", \"1d12h\")"
                )
            }
            return .advance(seconds: seconds)
        default:
            throw fail(path, "unknown step \"\(member.key)\"; expected one of \(kinds.joined(separator: ", "))")
        }
    }

    // MARK: typed reads

    private func object(_ value: JSONValue, _ path: String, allowed: [String]) throws(ScenarioError) -> [String:
        JSONValue]
    {
        do {
            return try CheckedJSON.members(value, path, allowed: allowed)
        } catch {
            throw fail(error.path, error.reason)
        }
    }

    private func string(_ value: JSONValue, _ path: String) throws(ScenarioError) -> String {
        do {
            return try CheckedJSON.string(value, path)
        } catch {
            throw fail(error.path, error.reason)
        }
    }

    private func nonEmptyString(_ value: JSONValue, _ path: String) throws(ScenarioError) -> String {
        let text = try string(value, path)
        guard !text.isEmpty else { throw fail(path, "must not be empty") }
        return text
    }

    private func bool(_ value: JSONValue, _ path: String) throws(ScenarioError) -> Bool {
        do {
            return try CheckedJSON.bool(value, path)
        } catch {
            throw fail(error.path, error.reason)
        }
    }

    private func fail(_ path: String, _ reason: String) -> ScenarioError {
        ScenarioError(file: file, path: path, reason: reason)
    }
}
