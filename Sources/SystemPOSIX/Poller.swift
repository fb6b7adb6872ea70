/// What a platform's readiness interface must do, written once per platform (`EpollBackend` for
/// Linux, `KqueueBackend` for macOS, each in its platform's file), as swift-nio's
/// `SelectorGeneric` stands on `SelectorEpoll` and `SelectorKqueue`.
protocol PollerBackend {
    /// A new poller descriptor, close-on-exec.
    static func open() throws(SystemError) -> Int32
    /// Registers `fd` for input and output, edge-triggered, reported under `token`.
    static func add(_ poller: Int32, _ fd: Int32, token: UInt64) throws(SystemError)
    /// Unregisters `fd`.
    static func remove(_ poller: Int32, _ fd: Int32)
    /// The events ready now, at most `max`; never blocks. Replaces `events`' contents.
    static func take(_ poller: Int32, into events: inout [PollEvent], max: Int)
}

/// A poller: one descriptor that is readable when any descriptor registered with it is ready, so
/// one dispatch source can watch many sockets. Edge-triggered: an event says a socket *became*
/// ready, so its owner reads or writes until `wouldBlock` before it waits again. Errors come back
/// with the call that failed and its reason (`SystemError`), never swallowed.
public struct Poller: Sendable {
    /// The poller's own descriptor: watch it for readability to know that events wait.
    public let descriptor: Int32

    public init() throws(SystemError) {
        descriptor = try PlatformPoller.open()
    }

    /// Registers `fd` for input and output, reported under `token`.
    public func add(_ fd: Int32, token: UInt64) throws(SystemError) {
        try PlatformPoller.add(descriptor, fd, token: token)
    }

    /// Unregisters `fd` (closing it would too; this makes it immediate and explicit).
    public func remove(_ fd: Int32) {
        PlatformPoller.remove(descriptor, fd)
    }

    /// The events ready now, at most `max` (up to 128); never blocks. Replaces `events`' contents.
    public func take(into events: inout [PollEvent], max: Int) {
        PlatformPoller.take(descriptor, into: &events, max: max)
    }

    /// Closes the poller; no call may follow.
    public func close() {
        System.close(descriptor)
    }
}
