import SKANDomain
import Testing

@testable import SKANMock

@Suite struct CountedTests {
    @Test func oneIsSingularEverythingElsePlural() {
        #expect(Counted.text(1, "device") == "1 device")
        #expect(Counted.text(0, "device") == "0 devices")
        #expect(Counted.text(2, "recorded answer") == "2 recorded answers")
        #expect(Counted.text(1, "journal entry", plural: "journal entries") == "1 journal entry")
        #expect(Counted.text(5, "journal entry", plural: "journal entries") == "5 journal entries")
    }
}

@Suite struct ConfigFileKindTests {
    @Test func tellsSchemasScenariosAndModelsApart() throws {
        let schema = try JSONParser.parse(
            #"{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object"}"#)
        let scenario = try JSONParser.parse(#"{"name":"s","steps":[{"session":{}}]}"#)
        let model = try JSONParser.parse(#"{"$schema":"./model.schema.json","name":"m","skan3":{}}"#)
        let brokenModel = try JSONParser.parse(#"{"name":"m","steps":[],"skan4":{}}"#)
        // A scenario that forwards to the S2S endpoints (config/scenarios/lifecycle.json) is one.
        let s2sScenario = try JSONParser.parse(#"{"name":"s","s2s":true,"steps":[{"session":{}}]}"#)
        let s2sModel = try JSONParser.parse(#"{"name":"m","steps":[],"s2s":{"launch":true}}"#)
        #expect(ConfigFileKind.of(s2sScenario) == .scenario)
        #expect(ConfigFileKind.of(s2sModel) == .model)
        #expect(ConfigFileKind.of(schema) == .jsonSchema)
        #expect(ConfigFileKind.of(scenario) == .scenario)
        #expect(ConfigFileKind.of(model) == .model)
        #expect(ConfigFileKind.of(brokenModel) == .model)
        #expect(ConfigFileKind.model.skipNote == nil)
    }
}
