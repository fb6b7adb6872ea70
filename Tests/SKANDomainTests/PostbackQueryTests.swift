import Testing

@testable import SKANDomain

/// The postbacks route's parameters: each value Apple's options allow, and a clear error naming the
/// parameter and the allowed values for anything else (issue 29, issue 30.20).
@Suite("Postback query")
struct PostbackQueryTests {
    func parse(_ query: [(String, String)]) -> Result<PostbackQuery, PostbackQuery.Failure> {
        PostbackQuery.parse(query.map { (name: $0.0, value: $0.1) })
    }

    @Test func goodValues() throws {
        let query = try parse([
            ("tier", "2"), ("did_win", "false"), ("developer_mode", "true"), ("framework", "aak"), ("digits", "3")
        ]).get()
        #expect(query.tiers == [2] && !query.didWin && query.developerMode && query.framework == .aak)
        #expect(query.digits == 3)
        #expect(try parse([]).get() == PostbackQuery())
        #expect(try parse([]).get().tiers == [0, 1, 2, 3])
    }

    @Test(arguments: [
        ("tier", "9", "tier must be 0, 1, 2 or 3"), ("tier", "+1", "tier must be 0, 1, 2 or 3"),
        ("tier", "01", "tier must be 0, 1, 2 or 3"), ("digits", "5", "digits must be 2, 3 or 4"),
        ("did_win", "yes", "did_win must be true or false"),
        ("developer_mode", "1", "developer_mode must be true or false"),
        ("framework", "skadnetwork", "framework must be skan or aak")
    ])
    func badValuesNameTheParameterAndTheAllowedValues(name: String, value: String, message: String) {
        #expect(parse([(name, value)]) == .failure(PostbackQuery.Failure(parameter: name, message: message)))
    }

    /// 30.20: a repeated parameter is refused, not the last one taken silently.
    @Test func aRepeatedParameterIsRefused() {
        #expect(
            parse([("tier", "1"), ("tier", "2")])
                == .failure(PostbackQuery.Failure(parameter: "tier", message: "tier is given twice; give it once")))
    }

    @Test func anUnknownParameterListsTheKnownOnes() {
        #expect(
            parse([("teir", "1")])
                == .failure(
                    PostbackQuery.Failure(
                        parameter: "teir",
                        message: "unknown parameter teir; use tier, did_win, developer_mode, framework, digits, country"
                    )))
    }
}
