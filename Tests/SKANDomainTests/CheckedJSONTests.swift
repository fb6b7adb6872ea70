import Testing

@testable import SKANDomain

/// The one checked-JSON reader: every problem names its JSON path.
@Suite("Checked JSON")
struct CheckedJSONTests {
    private func json(_ text: String) throws -> JSONValue { try JSONParser.parse(text) }

    @Test func membersAreCheckedAgainstTheAllowedNames() throws {
        let checked = CheckedJSON.checkMembers(
            try json(#"{"min_cout":1,"max":2,"max":3,"odd key":4}"#), "$.x", allowed: ["min_count", "max"],
            required: ["min_count"])
        #expect(checked.members == ["max": 2])
        #expect(
            checked.problems == [
                JSONProblem(
                    path: "$.x.min_cout",
                    reason: #"unknown key "min_cout" (did you mean "min_count"?); allowed here: min_count, max"#),
                JSONProblem(path: "$.x.max", reason: #"duplicate key "max""#),
                JSONProblem(path: #"$.x["odd key"]"#, reason: #"unknown key "odd key"; allowed here: min_count, max"#),
                JSONProblem(path: "$.x", reason: #""min_count" is missing"#)
            ])
        #expect(throws: JSONProblem(path: "$", reason: "expected an object, found array")) {
            try CheckedJSON.members(try json("[]"), "$", allowed: [])
        }
        #expect(throws: JSONProblem(path: "$.a.b", reason: #"unknown key "b"; it takes no keys ({})"#)) {
            try CheckedJSON.members(try json(#"{"b":1}"#), "$.a", allowed: [])
        }
    }

    @Test func valuesAreReadWithTheirPath() throws {
        #expect(try CheckedJSON.integer(try json("7"), "$.n", 0...63) == 7)
        #expect(throws: JSONProblem(path: "$.n", reason: "99 is outside 0...63")) {
            try CheckedJSON.integer(try json("99"), "$.n", 0...63)
        }
        #expect(throws: JSONProblem(path: "$.n", reason: #"expected a fine value in 0...63, found string "7""#)) {
            try CheckedJSON.integer(try json(#""7""#), "$.n", 0...63, what: "a fine value")
        }
        #expect(throws: JSONProblem(path: "$.s", reason: "expected a string, found integer 1")) {
            try CheckedJSON.string(try json("1"), "$.s")
        }
        #expect(try CheckedJSON.bool(try json("true"), "$.b"))
    }
}
