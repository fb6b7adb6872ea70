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
    /// The events ready, at most `max`: those ready now (never blocking), or when `blocking`, at
    /// least one, waiting as long as it takes. Replaces `events`' contents.
    static func take(_ poller: Int32, into events: inout [PollEvent], max: Int, blocking: Bool)
    /// Registers what `interrupt` triggers, reported under `token`; returns a descriptor to close
    /// with the poller, or -1 when there is none (kqueue's user event needs no descriptor).
    static func addInterrupt(_ poller: Int32, token: UInt64) throws(SystemError) -> Int32
    /// Triggers the interrupt `addInterrupt` registered: a blocked `take` returns with its event.
    static func interrupt(_ poller: Int32, _ handle: Int32)
}

/// A poller: one descriptor that is readable when any descriptor registered with it is ready, so
/// one thread (or one dispatch source) can watch many sockets. Edge-triggered: an event says a socket *became*
/// ready, so its owner reads or writes until `wouldBlock` before it waits again. Errors come back
/// with the call that failed and its reason (`SystemError`), never swallowed.
public struct Poller: Sendable {
    /// The poller's own descriptor: watch it for readability to know that events wait.
    public let descriptor: Int32
    /// What `interrupt()` triggers (an eventfd on Linux, -1 for kqueue's user event).
    private let interruptHandle: Int32

    /// The token `interrupt()` is reported under; never give it to `add`.
    public static let interruptToken = UInt64.max

    public init() throws(SystemError) {
        descriptor = try PlatformPoller.open()
        do {
            interruptHandle = try PlatformPoller.addInterrupt(descriptor, token: Self.interruptToken)
        } catch {
            System.close(descriptor)
            throw error
        }
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
        PlatformPoller.take(descriptor, into: &events, max: max, blocking: false)
    }

    /// The events ready, at most `max` (up to 128), waiting until there is at least one: a thread
    /// of its own waits here, as nginx's loop does, and `interrupt()` ends the wait from any thread.
    public func wait(into events: inout [PollEvent], max: Int) {
        PlatformPoller.take(descriptor, into: &events, max: max, blocking: true)
    }

    /// From any thread: a `wait` (now or the next) returns with an event under `interruptToken`.
    public func interrupt() {
        PlatformPoller.interrupt(descriptor, interruptHandle)
    }

    /// Closes the poller; no call may follow.
    public func close() {
        if interruptHandle >= 0 { System.close(interruptHandle) }
        System.close(descriptor)
    }
}
