import ArgumentParser
import SKANMock

/// A second, HTTPS port, and the certificate it serves.
struct ServeHTTPS: ServeOptionGroup {
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Also serve HTTPS on this port (0 picks a free one), with a certificate a phone can trust. [env: SKAN_MOCK_HTTPS_PORT, default: none]",
            valueName: "port"))
    var httpsPort: Int?

    @Option(
        help: ArgumentHelp(
            "Your own certificate chain for HTTPS (PEM), with --tls-key; without them a local CA issues one. [env: SKAN_MOCK_TLS_CERT]",
            valueName: "file"))
    var tlsCert: String?

    @Option(help: ArgumentHelp("The private key of --tls-cert (PEM). [env: SKAN_MOCK_TLS_KEY]", valueName: "file"))
    var tlsKey: String?

    @Option(
        name: .customLong("tls-name"),
        help: ArgumentHelp(
            "One more host name or IP address for the HTTPS certificate; repeatable. [env: SKAN_MOCK_TLS_NAMES, a comma list]",
            valueName: "name-or-ip"))
    var tlsNames: [String] = []

    @Option(
        help: ArgumentHelp(
            "Folder of the local CA, created (mode 0700) the first time HTTPS is served. [env: SKAN_MOCK_STATE_DIR, default: ~/.skan-mock]",
            valueName: "dir"))
    var stateDir: String?

    func apply(to options: inout ServerOptions, _ environment: Environment) throws(SKANMockServer.StartupError) {
        let certificate = tlsCert ?? environment["SKAN_MOCK_TLS_CERT"]
        let key = tlsKey ?? environment["SKAN_MOCK_TLS_KEY"]
        if (certificate == nil) != (key == nil) {
            throw SKANMockServer.StartupError(
                .configuration,
                "--tls-cert and --tls-key go together (SKAN_MOCK_TLS_CERT and SKAN_MOCK_TLS_KEY): give both, or neither (a local CA then issues the certificate)"
            )
        }
        let port = try environment.integer(
            httpsPort, "--https-port", "SKAN_MOCK_HTTPS_PORT", in: 0...65535, ServeListening.ports)
        guard let port else {
            // The command line's TLS options without an HTTPS listener would quietly do nothing. (Not
            // the environment's: a template such as docker/compose.yaml sets them whether or not it
            // serves HTTPS.)
            let given = [
                tlsCert.map { _ in "--tls-cert" }, tlsKey.map { _ in "--tls-key" },
                tlsNames.first.map { _ in "--tls-name" }
            ]
            if let option = given.compactMap({ $0 }).first {
                throw SKANMockServer.StartupError(
                    .configuration,
                    "\(option) needs --https-port PORT (or SKAN_MOCK_HTTPS_PORT; 8443 is usual): without an HTTPS listener it does nothing"
                )
            }
            return
        }
        let stateDirectory: String
        do {
            stateDirectory = try StateDirectory.resolve(option: stateDir, environment: environment)
        } catch {
            throw SKANMockServer.StartupError(.configuration, "\(error)")
        }
        options.https = HTTPSOptions(
            port: port, certificateFile: certificate, keyFile: key,
            extraNames: tlsNames.isEmpty ? environment.list("SKAN_MOCK_TLS_NAMES") : tlsNames,
            stateDirectory: stateDirectory)
    }

    mutating func validate() throws { try check() }
}
