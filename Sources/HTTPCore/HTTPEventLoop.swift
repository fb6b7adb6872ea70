import Dispatch
import SystemPOSIX

/// A serial queue and a poller (epoll, kqueue) with a thread of its own waiting on it, as nginx's
/// loop does. Connections on a loop live on its queue; when the poller reports sockets ready, the
/// waiting thread serves them itself, inside `queue.sync`: when nothing else runs on the queue
/// (the usual case) that costs an atomic, not a hand-off to another thread, so a request on a quiet
/// connection costs `epoll_wait`, `read` and `send` and no wake-up of anyone. Work others post to
/// the queue (a delayed answer, a stream's bytes, the deadline sweep) still runs there, in turn.
/// Dispatch still owns every thread: the waiting one is a block on a serial queue of its own.
///
/// `@unchecked Sendable`: `connections` is touched only on `queue`.
final class HTTPEventLoop: @unchecked Sendable {
    let queue: DispatchQueue
    private let poller: Poller
    private var connections: [UInt64: HTTPConnection] = [:]
    /// Set once, by `stop` or `deinit`, which then interrupt the wait (once: the waiting thread
    /// closes the poller after that interrupt, so none may follow).
    private let stopped = Atomic<Bool>(false)

    /// Events taken per turn; if more are ready, the next wait returns them at once.
    private static let batch = 128

    init(label: String) throws(SystemError) {
        poller = try Poller()
        queue = DispatchQueue(label: label, qos: .userInitiated)
        let poller = self.poller
        // Serial queues are overcommitting: this block gets a thread, and keeps it, without taking
        // one from the pool that serves everything else.
        DispatchQueue(label: label + ".wait", qos: .userInitiated).async { [weak self] in
            var events: [PollEvent] = []
            events.reserveCapacity(Self.batch)
            while true {
                poller.wait(into: &events, max: Self.batch)
                // Only `stop` or `deinit` interrupt, once: after it nothing touches the poller.
                if events.contains(where: { $0.token == Poller.interruptToken }) { break }
                guard let loop = self else { continue }
                loop.queue.sync { loop.serve(events) }
            }
            poller.close()
        }
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

    /// On `queue`: serves the sockets the poller reported.
    private func serve(_ events: [PollEvent]) {
        for event in events {
            connections[event.token]?.ready(
                readable: event.readable, writable: event.writable, peerClosed: event.peerClosed)
        }
    }

    /// Stops watching; the waiting thread closes the poller and ends. Connections must be closed.
    func stop() {
        if !stopped.exchange(true, ordering: .acquiringAndReleasing) { poller.interrupt() }
    }

    deinit { stop() }
}
