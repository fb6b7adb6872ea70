import ArgumentParser
import SKANMock

/// Who may change the server through the admin API.
struct ServeAdmin: ServeOptionGroup {
    @Option(
        help: ArgumentHelp(
            "Require 'Authorization: Bearer <token>' on /__admin calls; empty means no token. [env: SKAN_MOCK_ADMIN_TOKEN]",
            valueName: "token"))
    var adminToken: String?

    @Flag(
        help:
            "Bound beyond loopback without --admin-token, take admin changes from any machine (by default only from this one). [env: SKAN_MOCK_ADMIN_OPEN=1]"
    )
    var adminOpen = false

    @Option(
        name: .customLong("allowed-host"),
        help: ArgumentHelp(
            "One more host name the admin API and the console answer (a Compose service's name, a QA box's DNS name), besides this machine's own names and addresses; repeatable. Others get 421 (DNS rebinding). [env: SKAN_MOCK_ALLOWED_HOSTS, a comma list]",
            valueName: "name"))
    var allowedHosts: [String] = []

    func apply(to options: inout ServerOptions, _ environment: Environment) throws(SKANMockServer.StartupError) {
        // An empty --admin-token means no token, as an empty SKAN_MOCK_ADMIN_TOKEN does: a script's
        // `--admin-token "$SKAN_MOCK_ADMIN_TOKEN"` with the variable unset must not lock the admin API.
        options.adminToken = adminToken ?? environment["SKAN_MOCK_ADMIN_TOKEN"]
        if options.adminToken?.isEmpty == true { options.adminToken = nil }
        options.adminOpen = adminOpen || environment.flag("SKAN_MOCK_ADMIN_OPEN")
        options.allowedHosts = allowedHosts.isEmpty ? environment.list("SKAN_MOCK_ALLOWED_HOSTS") : allowedHosts
    }

    mutating func validate() throws { try check() }
}
