import SKANDomain
import Testing

/// Issue 41.5: the documents a person writes (model, fault list, replay file, the journal it is
/// recorded from, scenario) fail with one error type, told alike.
@Suite struct DocumentErrorTests {
    @Test func oneProblemLeadsTheLineAndEveryProblemHasOneOfItsOwn() {
        let model = ModelError(
            file: "m.json",
            problems: [
                JSONProblem(path: "$.skan4.p0.entries[2].fine", reason: "64 is outside 0...63"),
                JSONProblem(path: "$.name", reason: "expected a string")
            ])
        #expect(
            model.description
                == "m.json: $.skan4.p0.entries[2].fine: 64 is outside 0...63 (and 1 more problem: skan-mock validate m.json lists them all)"
        )
        #expect(
            model.fullDescription
                == "m.json: $.skan4.p0.entries[2].fine: 64 is outside 0...63\nm.json: $.name: expected a string")
        let replay = ReplayFileError(file: "r.json", path: "line 7", reason: "not JSON")
        #expect(replay.description == "r.json: line 7: not JSON")
        #expect(replay == DocumentError(file: "r.json", problems: [JSONProblem(path: "line 7", reason: "not JSON")]))
        // The file as a whole: no place to name.
        #expect(DocumentError(file: "j.jsonl", path: "", reason: "it is empty").description == "j.jsonl: it is empty")
    }
}
