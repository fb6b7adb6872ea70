import SystemPOSIX

/// Why the server could not start.
public enum HTTPServerError: Error, Equatable, CustomStringConvertible {
    case cannotResolve(host: String, reason: String)
    case cannotListen(host: String, port: Int, reason: String)
    /// Another socket holds the port: another program, or another server started earlier.
    case portInUse(host: String, port: Int, reason: String)
    /// An event loop's poller could not be made (out of descriptors, typically).
    case cannotStartEventLoop(reason: String)
    case alreadyStarted

    public var description: String {
        switch self {
        case .cannotResolve(let host, let reason): "cannot resolve host '\(host)': \(reason)"
        case .cannotListen(let host, let port, let reason), .portInUse(let host, let port, let reason):
            "cannot listen on \(host):\(port): \(reason)"
        case .cannotStartEventLoop(let reason): "cannot start an event loop: \(reason)"
        case .alreadyStarted: "the server is already started"
        }
    }

    init(listening host: String, port: Int, _ error: SystemError) {
        switch error.domain {
        case .addressInfo: self = .cannotResolve(host: host, reason: error.reason)
        case .errno where error.isAddressInUse: self = .portInUse(host: host, port: port, reason: error.reason)
        case .errno: self = .cannotListen(host: host, port: port, reason: error.reason)
        }
    }
}
