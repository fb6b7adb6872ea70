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
            Serve.self, Validate.self, Health.self, Simulate.self, Report.self, Compare.self, Record.self,
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
        do {
            var command = try parseAsRoot(arguments)
            if !(command is Serve) { SignalHandlers.restoreDefault() }
            try command.run()
        } catch {
            if error is ExitCode || exitCode(for: error) == .success { exit(withError: error) }
            StandardStreams.error(Self.oneLine(fullMessage(for: error)))
            System.exit(exitCode(for: error).rawValue)
        }
    }

    /// `skan-mock: REASON (see 'skan-mock COMMAND --help')` from ArgumentParser's message.
    static func oneLine(_ message: String) -> String {
        let lines = message.split(separator: "\n").map { $0.drop { $0 == " " } }
        var reason = lines.first.map(String.init) ?? "the command line cannot be read"
        if reason.hasPrefix("Error: ") { reason.removeFirst("Error: ".count) }
        // "See 'skan-mock serve --help' for more information."
        let see =
            lines.first { $0.hasPrefix("See '") }.flatMap { line in
                line.split(separator: "'", omittingEmptySubsequences: false).dropFirst().first
            }.map { " (see '\($0)')" } ?? ""
        return "skan-mock: \(reason)\(see)"
    }
}
