@testable import HTTPCore

/// Starts an `HTTPServer` on 127.0.0.1 and a free port for one test, and stops it afterwards.
final class TestHTTPServer {
    let server: HTTPServer

    init(limits: HTTPLimits = HTTPLimits(), responder: any HTTPResponder, security: (any HTTPWireSecurity)? = nil)
        throws
    {
        TestDescriptorLimit.ensure()
        server = HTTPServer(
            configuration: .init(host: "127.0.0.1", port: 0, limits: limits, security: security), responder: responder)
        try server.start()
    }

    var port: Int { server.port }

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    deinit { server.shutdown(gracePeriod: 1) }
}
