import ArgumentParser
import SKANMock

/// Where the server listens, and how many connections it takes.
struct ServeListening: ServeOptionGroup {
    @Option(help: ArgumentHelp("Address to listen on. [env: SKAN_MOCK_HOST, default: 127.0.0.1]", valueName: "address"))
    var host: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Port to listen on; 0 picks a free one. [env: SKAN_MOCK_PORT, default: 8080]", valueName: "port"))
    var port: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Open connections per port beyond which new ones get 503; the open-file limit is raised to fit them. [env: SKAN_MOCK_MAX_CONNECTIONS, default: 1024]",
            valueName: "n"))
    var maxConnections: Int?

    /// The rule of every port option.
    static let ports = "must be in 0...65535 (0 picks a free one)"

    func apply(to options: inout ServerOptions, _ environment: Environment) throws(SKANMockServer.StartupError) {
        options.host = host ?? environment["SKAN_MOCK_HOST"] ?? options.host
        options.port =
            try environment.integer(port, "--port", "SKAN_MOCK_PORT", in: 0...65535, Self.ports) ?? options.port
        options.limits.maxConnections =
            try environment.integer(
                maxConnections, "--max-connections", "SKAN_MOCK_MAX_CONNECTIONS", in: 1...Int.max, "must be at least 1")
            ?? options.limits.maxConnections
    }

    mutating func validate() throws { try check() }
}
