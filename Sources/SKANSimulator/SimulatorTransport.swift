import HTTPCore

/// One HTTP answer as the simulated client sees it: the status and the raw body.
public struct SimulatorResponse: Sendable, Equatable {
    public var status: Int
    public var body: [UInt8]

    public init(status: Int, body: [UInt8]) {
        self.status = status
        self.body = body
    }
}

/// The server could not be reached or did not answer HTTP; the simulation stops (exit 1).
public struct SimulatorTransportError: Error, Sendable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) { self.description = description }
}

/// How the simulator sends a GET. A protocol so the state machine is tested without sockets.
public protocol SimulatorTransport {
    /// `target` is the path and percent-encoded query, e.g. `/api/v2/conversion_value?n=__SESSION__`.
    func get(_ target: String) throws(SimulatorTransportError) -> SimulatorResponse
}

/// The real transport: one blocking `HTTPProbe` GET per request (`Connection: close`), like a
/// fresh `NSURLSession` data task, so no server-side keep-alive state leaks between steps.
public struct HTTPProbeTransport: SimulatorTransport {
    public let base: SimulatorURL
    public let timeout: Double

    public init(base: SimulatorURL, timeout: Double = 5) {
        self.base = base
        self.timeout = timeout
    }

    public func get(_ target: String) throws(SimulatorTransportError) -> SimulatorResponse {
        do {
            let answer = try HTTPProbe.get(
                host: base.host, port: base.port, path: base.basePath + target, timeout: timeout)
            return SimulatorResponse(status: answer.status, body: answer.body)
        } catch {
            throw SimulatorTransportError("\(base.description): \(error.description)")
        }
    }
}
