import HTTPCore
import SKANDomain

/// What the SKAN fuzzer checks on one input. The bytes are
/// - a query string (split on `&` and `=`, percent-decoded by `FormURLEncoding`, as the app does)
///   sent twice to each of the four endpoints of a fresh `ConversionService` (built-in model, clock
///   fixed), the second time with the device state the first call left;
/// - a JSON text for `JSONParser`, and a model file for `ConversionModel.parse`;
/// - when they hold a NUL byte: a query before it and a model file after it, and when that model
///   loads, the query is answered under it (so fuzzed models reach the rule evaluation).
/// Properties beyond "does not trap": every outcome has status 200, a body that is empty or valid
/// JSON with what iOS accepts (status ok/error, fine value 0...63, coarse 0...2, Boolean lock), and a `skan` object whose serialization parses; JSON serialization is a fixed point after
/// one round (serialize(parse(serialize(v))) == serialize(v)).
public enum SKANParametersHarness {
    /// 2025-11-21T04:40:00Z, the tests' T0.
    public static let now: Int64 = 1_763_700_000

    public static func check(_ bytes: [UInt8]) {
        let pairs = FormURLEncoding.pairs(bytes)
        run(pairs, model: .builtIn, bytes: bytes)

        checkJSON(bytes)
        if let model = try? ConversionModel.parse(bytes: bytes, source: "fuzz.json") {
            checkJSON(JSONWriter.serialize(model.json))
        }

        if let nul = bytes.firstIndex(of: 0) {
            let modelBytes = Array(bytes[(nul + 1)...])
            if let model = try? ConversionModel.parse(bytes: modelBytes, source: "fuzz.json") {
                run(FormURLEncoding.pairs(Array(bytes[..<nul])), model: model, bytes: bytes)
            }
        }
    }

    static func run(_ pairs: [(name: String, value: String)], model: ConversionModel, bytes: [UInt8]) {
        let service = ConversionService(model: model, clock: ManualClock(seconds: now), deviceCapacity: 2)
        for endpoint in SKANEndpoint.allCases {
            for _ in 0..<2 {
                let request = SKANRequest(method: "GET", path: endpoint.path, remote: "127.0.0.1:1", parameters: pairs)
                let outcome = service.handle(endpoint, request)
                if outcome.status != 200 { fail("\(endpoint) answered status \(outcome.status)", bytes) }
                if !outcome.body.isEmpty {
                    let body: JSONValue
                    do { body = try JSONParser.parse(outcome.body) } catch {
                        fail("\(endpoint) answered invalid JSON (\(error)): \(outcome.bodyText)", bytes)
                    }
                    checkAnswer(body, endpoint, outcome.bodyText, bytes)
                }
                do { _ = try JSONParser.parse(outcome.skan.jsonText) } catch {
                    fail("\(endpoint) skan object does not serialize to JSON: \(error)", bytes)
                }
                for finding in outcome.findings { _ = finding.description }
            }
        }
        if let device = pairs.last(where: { $0.name == "idfv" })?.value, let state = service.deviceState(device) {
            do { _ = try JSONParser.parse(JSONWriter.serialize(state)) } catch {
                fail("device state does not serialize to JSON: \(error)", bytes)
            }
        }
    }

    /// What iOS accepts: a status, a fine value in 0...63, a coarse value in 0...2, a Boolean lock.
    static func checkAnswer(_ body: JSONValue, _ endpoint: SKANEndpoint, _ text: String, _ bytes: [UInt8]) {
        guard let status = body["status"]?.stringValue, status == "ok" || status == "error" else {
            fail("\(endpoint) answer without status ok/error: \(text)", bytes)
        }
        if let value = body["conversion_value"], !(value.intValue.map { (0...63).contains($0) } ?? false) {
            fail("\(endpoint) answered a conversion value outside 0...63: \(text)", bytes)
        }
        if let value = body["skan_updated_coarse_value"], !(value.intValue.map { (0...2).contains($0) } ?? false) {
            fail("\(endpoint) answered a coarse value outside 0...2: \(text)", bytes)
        }
        if let value = body["skan_updated_lock_window_value"], value.boolValue == nil {
            fail("\(endpoint) answered a lock that is not a Boolean: \(text)", bytes)
        }
    }

    static func checkJSON(_ bytes: [UInt8]) {
        guard let value = try? JSONParser.parse(bytes) else { return }
        let once = JSONWriter.serialize(value)
        let reparsed: JSONValue
        do { reparsed = try JSONParser.parse(once) } catch {
            fail("serialized JSON does not parse (\(error)): \(escaped(once))", bytes)
        }
        let twice = JSONWriter.serialize(reparsed)
        if twice != once { fail("JSON round trip changes \(escaped(once)) into \(escaped(twice))", bytes) }
    }
}
