import ArgumentParser
import SKANFiles
import SKANMock
import SKANSimulator
import SystemPOSIX

@main
struct SKANMockCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "skan-mock",
        abstract: "A local stand-in for Singular's SKAdNetwork conversion-value service.",
        discussion: """
            Point your app's SINGULAR_API_URL at http://HOST:PORT/api/v2/conversion_value (SKAN 4) or \
            /api/v1/conversion_value (SKAN 3). Every request is validated and recorded in a journal \
            that tests read back through /__admin/requests.
            """,
        version: SKANMockVersion.current,
        subcommands: [
            Serve.self, Validate.self, Health.self, Simulate.self, Report.self, Compare.self, Record.self, Check.self,
            CertificateAuthority.self
        ],
        defaultSubcommand: Serve.self
    )

    /// As ArgumentParser's own, but a command line that cannot be read is one line on standard
    /// error (the docs promise it, and a CI log shows the cause first), with where to look: its
    /// default is the error, the option's help and the whole usage, 3 to 4 lines. Help, `--version`
    /// and the commands' own exit statuses are as ArgumentParser makes them.
    ///
    /// Before anything else, while the process has one thread, the signals the server handles are
    /// blocked, so one sent at any moment waits for its handler (`SignalHandlers`); the commands
    /// that are not the server get them back as usual.
    static func main() {
        SignalHandlers.blockAtStart()
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let unknown = unknownHelpTopic(arguments) {
            StandardStreams.error(unknown)
            System.exit(ExitCode.validationFailure.rawValue)
        }
        var command: any ParsableCommand
        do {
            // `serve` named when nothing is: ArgumentParser reports a default subcommand's failure
            // as a missing argument, with the whole help after it.
            command = try parseAsRoot(arguments.isEmpty ? [Serve._commandName] : arguments)
        } catch {
            fail(error, see: nil)
        }
        if !(command is Serve) { SignalHandlers.restoreDefault() }
        do {
            try command.run()
        } catch {
            // ArgumentParser knows the subcommand of a parse error, not of one its `run` throws.
            fail(error, see: "skan-mock \(type(of: command)._commandName) --help")
        }
    }

    private static func fail(_ error: any Error, see: String?) -> Never {
        // An exit status without a message (`ExitCode`, from `run` or an option group's
        // `validate`): what was wrong has been said (`Serve.refusing`).
        if error is ExitCode || exitCode(for: error) == .success || fullMessage(for: error).isEmpty {
            exit(withError: error)
        }
        StandardStreams.error(Self.oneLine(fullMessage(for: error), see: see))
        System.exit(exitCode(for: error).rawValue)
    }

    /// `skan-mock help NAME` for a NAME that is no subcommand: ArgumentParser prints the whole
    /// help and exits 0, which a script takes for success. One line and 64 instead.
    static func unknownHelpTopic(_ arguments: [String]) -> String? {
        guard arguments.count >= 2, arguments[0] == "help" else { return nil }
        let names = configuration.subcommands.map { $0._commandName }
        let topic = arguments[1]
        guard !topic.hasPrefix("-"), !names.contains(topic), topic != "help" else { return nil }
        return
            "skan-mock: no subcommand \(topic); the subcommands are \(names.joined(separator: ", ")) (see 'skan-mock --help')"
    }

    /// `skan-mock: REASON (see 'skan-mock COMMAND --help')` from ArgumentParser's message; `help`,
    /// when given, is the help to point to instead of the one the message names.
    static func oneLine(_ message: String, see help: String? = nil) -> String {
        let lines = message.split(separator: "\n").map { $0.drop { $0 == " " } }
        var reason = lines.first.map(String.init) ?? "the command line cannot be read"
        if reason.hasPrefix("Error: ") { reason.removeFirst("Error: ".count) }
        // "See 'skan-mock serve --help' for more information."
        let named = lines.first { $0.hasPrefix("See '") }.flatMap { line in
            line.split(separator: "'", omittingEmptySubsequences: false).dropFirst().first.map(String.init)
        }
        // Only where ArgumentParser points to a help at all (a usage error, not a failure).
        let see = named.map { " (see '\(help ?? $0)')" } ?? ""
        return "skan-mock: \(reason)\(see)"
    }
}
