import SystemPOSIX

/// One part of the running server with a start and a stop: the journal's file, the upstream, the
/// delayed answers' timer, the listeners, the model watcher, the journal's waiters.
protocol ServerService: Sendable {
    /// For messages and tests.
    var name: String { get }
    func start() throws
    /// Stops it; requests in flight get up to `gracePeriod` seconds (the listeners).
    func stop(gracePeriod: Double)
}

/// Starts the server's parts in their declared order and stops them in reverse, as
/// swift-service-lifecycle's `ServiceGroup` does: what started last stops first (the watcher
/// before the listeners, the listeners before the upstream and the journal's file, so that every
/// answer still in flight is journaled and flushed). A part that fails to start stops the ones
/// already started, in reverse, and the start fails with its name and its error. Stopping twice
/// stops once. It knows nothing of the server: any set of parts can be run by it.
final class ServerLifecycle: Sendable {
    /// A part that did not start: which one, and its own error.
    struct StartFailure: Error, CustomStringConvertible {
        let service: String
        let error: any Error

        var description: String { "\(service) did not start: \(error)" }
    }

    /// The parts started, in order.
    private let started = Mutex<[any ServerService]>([])

    func start(_ services: [any ServerService]) throws(StartFailure) {
        for service in services {
            do {
                try service.start()
            } catch {
                stop(gracePeriod: 0)
                throw StartFailure(service: service.name, error: error)
            }
            started.withLock { $0.append(service) }
        }
    }

    /// Parts the start-up stages made running already (the journal's file, the upstream): stopped
    /// like the started ones, even when the server never listened (a test driving it in process).
    func adopt(_ services: [any ServerService]) {
        started.withLock { $0 += services }
    }

    func stop(gracePeriod: Double) {
        let running = started.withLock { list -> [any ServerService] in
            defer { list = [] }
            return list
        }
        for service in running.reversed() { service.stop(gracePeriod: gracePeriod) }
    }

    /// The names of the parts running, in start order.
    var running: [String] { started.withLock { $0.map(\.name) } }
}

/// A part given by its two closures: most of the server's are a line each.
struct ServerPart: ServerService {
    let name: String
    private let onStart: @Sendable () throws -> Void
    private let onStop: @Sendable (Double) -> Void

    init(
        _ name: String, start: @escaping @Sendable () throws -> Void = {},
        stop: @escaping @Sendable (_ gracePeriod: Double) -> Void = { _ in }
    ) {
        self.name = name
        onStart = start
        onStop = stop
    }

    func start() throws { try onStart() }
    func stop(gracePeriod: Double) { onStop(gracePeriod) }
}
