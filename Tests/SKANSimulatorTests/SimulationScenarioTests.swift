import Foundation
import Testing

@testable import SKANSimulator

/// Scenario files: every step kind, the defaults, and errors that name the file, the JSON path
/// and the reason.
@Suite("Simulation scenarios")
struct SimulationScenarioTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let scenarios = repository.appendingPathComponent("config/scenarios")

    @Test func everyStepKindParses() throws {
        let scenario = try SimulationScenario.parse(
            text: """
                {"name": "all", "description": "d", "device": "ID-1", "s2s": true,
                 "app": {"api_key": "K", "bundle": "b", "version": "2", "os_version": "18.0", "idfa": "X"},
                 "steps": [{"register": {}}, {"session": {}}, {"event": "level_up"},
                           {"revenue": {"amount": 15.53, "currency": "KRW", "admon": false}},
                           {"revenue": {"amount": 2, "currency": "USD", "admon": true}},
                           {"advance": "49h"}, {"advance": 90}, {"advance": "1d12h"}, {"advance": "30m"}, {"advance": "45s"}]}
                """, file: "all.json")
        #expect(scenario.name == "all" && scenario.description == "d" && scenario.device == "ID-1" && scenario.s2s)
        #expect(scenario.app.apiKey == "K" && scenario.app.bundle == "b" && scenario.app.version == "2")
        #expect(scenario.app.osVersion == "18.0" && scenario.app.idfa == "X")
        #expect(
            scenario.steps == [
                .register, .session, .event("level_up"), .revenue(amount: 15.53, currency: "KRW", admon: false),
                .revenue(amount: 2, currency: "USD", admon: true), .advance(seconds: 176_400), .advance(seconds: 90),
                .advance(seconds: 129_600), .advance(seconds: 1800), .advance(seconds: 45)
            ])
    }

    @Test func defaultsComeFromTheFileName() throws {
        let scenario = try SimulationScenario.parse(text: #"{"steps": [{"session": {}}]}"#, file: "dir/my-flow.json")
        #expect(scenario.name == "my-flow")
        #expect(!scenario.s2s)
        #expect(scenario.app == SimulatedApp())
        #expect(scenario.device == SimulationScenario.defaultDevice(for: "my-flow"))
        // IDFV-shaped, stable, and different per scenario.
        #expect(
            scenario.device.range(
                of: "^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$", options: .regularExpression)
                != nil)
        #expect(SimulationScenario.defaultDevice(for: "a") != SimulationScenario.defaultDevice(for: "b"))
    }

    @Test(arguments: [
        (
            #"{"steps": [{"session": {}}, {"revenue": {"amount": "12", "currency": "USD"}}]}"#,
            "$.steps[1].revenue.amount", "expected a number, found string"
        ),
        (
            #"{"steps": [{"sesion": {}}]}"#, "$.steps[0]",
            "unknown step \"sesion\"; expected one of register, session, event, revenue, advance"
        ),
        (
            #"{"steps": [{"advance": "2 weeks"}]}"#, "$.steps[0].advance",
            "'2 weeks' is not a duration: use seconds or a number with s, m, h or d (\"90\", \"30m\", \"49h\", \"1d12h\")"
        ),
        (#"{"steps": [{"advance": -5}]}"#, "$.steps[0].advance", "the clock only moves forward; -5 is negative"),
        (#"{"steps": [{"event": ""}]}"#, "$.steps[0].event", "must not be empty"),
        (#"{"steps": [{"revenue": {"amount": 1}}]}"#, "$.steps[0].revenue", "missing \"currency\" (e.g. \"USD\")"),
        (#"{"steps": [{"session": {"x": 1}}]}"#, "$.steps[0].session.x", "unknown key \"x\"; it takes no keys ({})"),
        (
            #"{"steps": [{"session": {}, "event": "e"}]}"#, "$.steps[0]",
            "a step has exactly one key, one of register, session, event, revenue, advance; found 2"
        ),
        (
            #"{"steps": [1]}"#, "$.steps[0]",
            "expected an object with one of register, session, event, revenue, advance, found integer"
        ),
        (
            #"{"step": []}"#, "$.step",
            "unknown key \"step\" (did you mean \"steps\"?); allowed here: name, description, device, app, s2s, steps"
        ),
        (#"{"name": "x"}"#, "$", "missing \"steps\" (an array of steps)"),
        (#"{"s2s": "yes", "steps": []}"#, "$.s2s", "expected true or false, found string \"yes\""),
        (
            #"{"app": {"idfv": "x"}, "steps": []}"#, "$.app.idfv",
            "unknown key \"idfv\" (did you mean \"idfa\"?); allowed here: api_key, bundle, version, os_version, idfa"
        )
    ])
    func errorsNameThePathAndTheReason(text: String, location: String, reason: String) {
        #expect(throws: ScenarioError(file: "bad.json", path: location, reason: reason)) {
            try SimulationScenario.parse(text: text, file: "bad.json")
        }
    }

    @Test func badJSONGivesTheLineAndColumn() {
        do {
            _ = try SimulationScenario.parse(text: "{\n  \"steps\": [,]\n}", file: "broken.json")
            Issue.record("parsed")
        } catch {
            #expect(error.file == "broken.json")
            #expect(error.path.hasPrefix("line 2, column "))
            #expect(error.description.hasPrefix("broken.json: line 2, column "))
        }
    }

    @Test func everyShippedScenarioParses() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.scenarios.path).filter {
            $0.hasSuffix(".json")
        }.sorted()
        #expect(files == ["lifecycle.json", "revenue-lock.json", "windows.json"])
        for file in files {
            let url = Self.scenarios.appendingPathComponent(file)
            let scenario = try SimulationScenario.parse(
                text: try String(contentsOf: url, encoding: .utf8), file: url.path)
            #expect(scenario.name + ".json" == file)
            #expect(!scenario.steps.isEmpty)
            #expect(scenario.description?.isEmpty == false)
        }
    }

    @Test func theBuiltInScenarioIsLifecycleJSON() throws {
        let file = try String(contentsOf: Self.scenarios.appendingPathComponent("lifecycle.json"), encoding: .utf8)
        #expect(SimulationScenario.builtInText + "\n" == file)
        #expect(
            SimulationScenario.builtIn.steps == [
                .register, .session, .event("event_name"), .revenue(amount: 15.53, currency: "KRW", admon: false),
                .event("revenue_event_name")
            ])
        #expect(SimulationScenario.builtIn.s2s)
    }
}
