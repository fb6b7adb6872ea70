/// The model used when none is given: `config/singular-testing.json`, compiled in so that the server
/// starts with no file at all. A test checks that this copy and the file stay identical.
extension ConversionModel {
    public static let builtInText = #"""
        {
          "$schema": "./model.schema.json",
          "name": "singular-testing",
          "description": "SKAN 3: Singular's testing endpoint (skadnetwork-testing.singular.net): answers current + 1 up to 2, then an empty body. SKAN 4: a simple model. p0: first session 1, second session 2, any revenue 10, revenue of 10 USD or more 20. p1 and p2: coarse values from sessions and this window's revenue (a session low, any revenue medium, 10 USD or more high); p2 locks at 10 USD.",
          "currency": {
            "base": "USD",
            "rates": {"EUR": 1.08, "GBP": 1.27, "JPY": 0.0066, "KRW": 0.00072}
          },
          "skan3": {"mode": "increment", "max": 2, "when_exhausted": "empty"},
          "skan4": {
            "p0": {
              "combine": "last",
              "entries": [
                {"fine": 1, "coarse": "low", "when": {"event": {"name": "__SESSION__"}}},
                {"fine": 2, "coarse": "low", "when": {"event": {"name": "__SESSION__", "min_count": 2}}},
                {"fine": 10, "coarse": "medium", "when": {"revenue": {"min": 0.01}}},
                {"fine": 20, "coarse": "high", "when": {"revenue": {"min": 10}}}
              ]
            },
            "p1": {
              "combine": "last",
              "entries": [
                {"coarse": "low", "when": {"event": {"name": "__SESSION__"}}},
                {"coarse": "medium", "when": {"revenue": {"min": 0.01, "period": "window"}}},
                {"coarse": "high", "when": {"revenue": {"min": 10, "period": "window"}}}
              ]
            },
            "p2": {
              "combine": "last",
              "entries": [
                {"coarse": "low", "when": {"event": {"name": "__SESSION__"}}},
                {"coarse": "medium", "when": {"revenue": {"min": 0.01, "period": "window"}}},
                {"coarse": "high", "lock": true, "when": {"revenue": {"min": 10, "period": "window"}}}
              ]
            }
          },
          "s2s": {"launch": false, "evt": false}
        }
        """#

    public static let builtIn: ConversionModel = {
        do {
            return try ConversionModel.parse(text: builtInText, source: "built-in singular-testing.json")
        } catch {
            fatalError("the built-in model does not load: \(error)")
        }
    }()
}
