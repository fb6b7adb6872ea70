import ArgumentParser
import SKANMock

/// One group of `serve`'s options (`@OptionGroup`): it fills in its part of the server's options,
/// the command line over the `SKAN_MOCK_*` environment, and refuses a value it cannot use, naming
/// the option or the variable the value came from. What holds across groups is checked once, by
/// the server's own configuration stage.
protocol ServeOptionGroup: ParsableArguments {
    func apply(to options: inout ServerOptions, _ environment: Environment) throws(SKANMockServer.StartupError)
}

extension ServeOptionGroup {
    /// The group's `validate()`: its values built once as it is parsed, so that a bad one stops the
    /// command before it runs. Said as every start-up refusal is (one line, `skan-mock: ...`, exit
    /// status 64), not as a usage error with the whole usage after it.
    func check() throws {
        var scratch = ServerOptions()
        try Serve.refusing { () throws(SKANMockServer.StartupError) in try apply(to: &scratch, Environment()) }
    }
}
