import Dispatch
import SystemPOSIX

/// A serial queue and a poller (epoll, kqueue) watched by one dispatch read source. Connections on
/// a loop live on its queue and are served inline when the poller says their socket is ready: one
/// wake-up of the loop's queue serves every socket that became ready meanwhile, instead of one
/// dispatch source, one worker hand-off and one re-arm per socket event. Dispatch still owns every
/// thread; the server runs one loop per core.
///
/// `@unchecked Sendable`: `connections` and `events` are touched only on `queue`.
final class HTTPEventLoop: @unchecked Sendable {
    let queue: DispatchQueue
    private let poller: Poller
    private let source: DispatchSourceRead
    private var connections: [UInt64: HTTPConnection] = [:]
    private var events: [PollEvent] = []

    /// Events taken per wake-up; if more are ready, the source fires again at once.
    private static let batch = 128

    init(label: String) throws(SystemError) {
        poller = try Poller()
        queue = DispatchQueue(label: label, qos: .userInitiated)
        source = DispatchSource.makeReadSource(fileDescriptor: poller.descriptor, queue: queue)
        events.reserveCapacity(Self.batch)
        let poller = self.poller
        source.setEventHandler { [weak self] in self?.drain() }
        source.setCancelHandler { poller.close() }
        source.resume()
    }

    /// On `queue`: watches `connection`'s socket; throws the poller's refusal with its cause.
    func add(_ connection: HTTPConnection, fd: Int32) throws(SystemError) {
        dispatchPrecondition(condition: .onQueue(queue))
        let token = UInt64(connection.id)
        try poller.add(fd, token: token)
        connections[token] = connection
    }

    /// On `queue`: forgets `connection`, before its socket is closed, so that an event already
    /// taken for it (or for a new socket given the same number) never reaches it.
    func remove(_ connection: HTTPConnection, fd: Int32) {
        dispatchPrecondition(condition: .onQueue(queue))
        poller.remove(fd)
        connections[UInt64(connection.id)] = nil
    }

    private func drain() {
        poller.take(into: &events, max: Self.batch)
        for event in events {
            connections[event.token]?.ready(
                readable: event.readable, writable: event.writable, peerClosed: event.peerClosed)
        }
    }

    /// Stops watching; the poller closes once the source is cancelled. Connections must be closed.
    func stop() {
        source.cancel()
    }

    deinit { source.cancel() }
}
