import Dispatch
import SystemPOSIX

/// All a connection does with its socket: read, send, shut down writing, be watched by its loop
/// and be closed. The server's is `SocketConnectionIO`; tests give a connection an in-memory twin
/// instead, as swift-nio's `EmbeddedChannel` does, so that its whole life (pipelining,
/// back-pressure, deadlines, streams, closing) runs in process without sockets or sleeps.
///
/// Every call comes on `queue`, the connection's serial queue.
protocol ConnectionIO {
    /// The serial queue the connection lives on, and the I/O's events come on.
    var queue: DispatchQueue { get }
    /// Up to `count` bytes into `buffer`: `.done(0)` is the end of input; nil, a failure.
    func read(_ buffer: UnsafeMutableRawPointer, _ count: Int) -> IOResult<Int>?
    /// As many of `count` bytes as the peer takes now; nil, a failure.
    func send(_ bytes: UnsafeRawPointer, _ count: Int) -> IOResult<Int>?
    /// Our side is done sending (a FIN); reading goes on.
    func shutdownWrite()
    /// From now on, readiness is reported to `connection.ready(...)`. Throws the refusal.
    func watch(_ connection: HTTPConnection) throws(SystemError)
    /// Releases the socket, once: forgotten by the loop first when it was watched.
    func close(_ connection: HTTPConnection, watched: Bool)
}

/// A descriptor watched by an `HTTPEventLoop`'s poller.
struct SocketConnectionIO: ConnectionIO {
    let fd: Int32
    let loop: HTTPEventLoop

    var queue: DispatchQueue { loop.queue }

    func read(_ buffer: UnsafeMutableRawPointer, _ count: Int) -> IOResult<Int>? {
        try? System.read(fd, buffer, count)
    }

    func send(_ bytes: UnsafeRawPointer, _ count: Int) -> IOResult<Int>? {
        try? System.send(fd, bytes, count)
    }

    func shutdownWrite() { System.shutdownWrite(fd) }

    func watch(_ connection: HTTPConnection) throws(SystemError) { try loop.add(connection, fd: fd) }

    func close(_ connection: HTTPConnection, watched: Bool) {
        if watched { loop.remove(connection, fd: fd) }
        System.close(fd)
    }
}
