/// The scenario `skan-mock simulate` runs without `--scenario`: `config/scenarios/lifecycle.json`
/// (seed 001's lifecycle example), compiled in so the command works from any directory. A test
/// checks that this copy and the file stay identical.
extension SimulationScenario {
    public static let builtInText = #"""
        {
          "name": "lifecycle",
          "description": "Seed 001's App Lifecycle Flow Example: first launch registers, then a session, a plain event, 15.53 KRW of revenue and its revenue event. After each, getSkanDetails is forwarded to the S2S launch/evt endpoints, as the example's back end does. With the bundled model: fine 0, 1, 1, then 10 (medium) for the revenue event.",
          "s2s": true,
          "steps": [
            {"register": {}},
            {"session": {}},
            {"event": "event_name"},
            {"revenue": {"amount": 15.53, "currency": "KRW", "admon": false}},
            {"event": "revenue_event_name"}
          ]
        }
        """#

    public static let builtIn: SimulationScenario = {
        do {
            return try SimulationScenario.parse(text: builtInText, file: "built-in lifecycle.json")
        } catch {
            fatalError("the built-in scenario does not parse: \(error)")
        }
    }()
}
