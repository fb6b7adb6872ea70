import ArgumentParser
import HTTPCore
import SKANFiles
import SKANMock

/// `skan-mock health`: asks a running server for `/__admin/health`; exit 0 when it answers 200.
/// It exists so a container's HEALTHCHECK needs no curl or wget in the image.
struct Health: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check that a running skan-mock answers /__admin/health (for container health checks)."
    )

    // The default is printed by ArgumentParser from the value below: not written again here.
    @Option(help: ArgumentHelp("Host of the server.", valueName: "address"))
    var host = "127.0.0.1"

    @Option(help: ArgumentHelp("Port of the server. [env: SKAN_MOCK_PORT, default: 8080]", valueName: "port"))
    var port: Int?

    @Option(
        help: ArgumentHelp("Seconds the whole exchange may take (answers over 1 MiB fail).", valueName: "seconds")
    )
    var timeout: Double = 3

    func run() throws {
        let environment = Environment()
        let port: Int
        do {
            // Read as `serve` reads it: a port that is not one is said, not taken for 8080.
            port =
                try environment.integer(self.port, "--port", "SKAN_MOCK_PORT", in: 1...65535, "must be in 1...65535")
                ?? 8080
        } catch {
            StandardStreams.error("skan-mock health: \(error.description)")
            throw ExitCode(64)
        }
        var headers: [(String, String)] = []
        if let token = environment["SKAN_MOCK_ADMIN_TOKEN"] { headers.append(("Authorization", "Bearer \(token)")) }
        do {
            let response = try HTTPProbe.get(
                host: host, port: port, path: "/__admin/health", headers: headers, timeout: timeout)
            guard response.status == 200 else {
                StandardStreams.error(
                    "skan-mock health: HTTP \(response.status)\(Self.hint(response.status, sentToken: !headers.isEmpty))"
                )
                throw ExitCode(1)
            }
            StandardStreams.output(String(decoding: response.body, as: UTF8.self))
        } catch let error as HTTPProbe.Failure {
            StandardStreams.error("skan-mock health: \(error.description)")
            throw ExitCode(1)
        }
    }

    /// What to do about a refusal: the token is the usual cause.
    static func hint(_ status: Int, sentToken: Bool) -> String {
        switch status {
        case 401 where sentToken:
            ": the server's admin token is not the one in SKAN_MOCK_ADMIN_TOKEN; set it to the server's --admin-token"
        case 401: ": the server has an admin token; set SKAN_MOCK_ADMIN_TOKEN to it (the server's --admin-token)"
        case 404: ": no skan-mock admin API at that port; is --port (SKAN_MOCK_PORT) the server's?"
        default: ""
        }
    }
}
