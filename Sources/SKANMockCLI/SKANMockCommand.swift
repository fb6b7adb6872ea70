import ArgumentParser
import SKANMock
import SKANSimulator

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
}
