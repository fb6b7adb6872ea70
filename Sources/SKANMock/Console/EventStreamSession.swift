import Dispatch
import SKANDomain
import Synchronization

/// Where an event stream's bytes go: the HTTP connection in the server, a recorder in tests.
protocol EventStreamTransport: Sendable {
    /// Hands bytes over to be sent; never blocks.
    func write(_ bytes: [UInt8])
    /// Bytes handed over and not yet written to the socket.
    var pendingBytes: Int { get }
    /// Ends the stream (the client reconnects with `Last-Event-ID`).
    func close()
}

/// One open `/__admin/events` stream (Server-Sent Events): the journal's entries as they are
/// recorded, filtered, each with `id: <boot>:<entry id>`; `event: reset` when the journal is
/// cleared. The journal hands events over under its lock, so the handler only queues them; a
/// serial queue of the session's own formats and writes them. A reader too far behind (more than
/// `maxQueuedEntries` waiting, or `maxPendingBytes` not yet on the socket) is closed rather than
/// let slow down request handling; it resumes with `Last-Event-ID`.
///
/// `@unchecked Sendable`: the mutable state is behind `state`'s lock; the heartbeat timer source is
/// one libdispatch makes safe to cancel from any thread.
final class EventStreamSession: @unchecked Sendable {
    struct Limits: Sendable {
        var maxQueuedEntries = 1_000
        var maxPendingBytes = 1 << 20
        /// A comment line goes out when nothing was sent for this long.
        var heartbeatSeconds = 15.0
    }

    private struct State: Sendable {
        /// What the stream starts with (a reset, kept entries to catch up on), sent in chunks as
        /// the reader takes them, before anything live.
        var backlog: ArraySlice<JournalEvent> = []
        /// Live events, in id order.
        var queue: [JournalEvent] = []
        var flushScheduled = false
        var closed = false
        var lastSent = MonotonicClock.microseconds()
        var subscription: Int?
    }

    let bootId: String
    let filter: JournalFilter
    private let journal: Journal
    private let transport: any EventStreamTransport
    private let limits: Limits
    private let queue = DispatchQueue(label: "skan-mock.console.events")
    private let state = Mutex(State())
    private let timer: DispatchSourceTimer

    init(bootId: String, filter: JournalFilter, journal: Journal, transport: any EventStreamTransport, limits: Limits = Limits()) {
        self.bootId = bootId
        var filter = filter
        filter.sinceId = nil
        filter.limit = nil
        self.filter = filter
        self.journal = journal
        self.transport = transport
        self.limits = limits
        timer = DispatchSource.makeTimerSource(queue: queue)
        let period = DispatchTimeInterval.milliseconds(Int(limits.heartbeatSeconds * 1000))
        timer.schedule(deadline: .now() + period, repeating: period)
        timer.setEventHandler { [weak self] in self?.heartbeat() }
        timer.resume()
    }

    deinit { timer.cancel() }

    /// Where a stream starts: after an entry id of this boot, or from now on.
    enum Start: Sendable, Equatable {
        /// Only entries recorded from now on.
        case now
        /// Kept entries after this id first (`since_id`, or a `Last-Event-ID` of this boot).
        case after(Int64)
        /// A `Last-Event-ID` of another boot: `event: reset`, then every kept entry.
        case otherBoot
    }

    /// Reads `Last-Event-ID` (which wins) and `since_id`.
    static func start(lastEventId: String?, sinceId: Int64?, bootId: String) -> Start {
        if let lastEventId, !lastEventId.isEmpty {
            let parts = lastEventId.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, parts[0] == bootId, let id = Int64(parts[1]) else { return .otherBoot }
            return .after(id)
        }
        return sinceId.map { .after($0) } ?? .now
    }

    /// Subscribes and sends the backlog; call once.
    func open(_ start: Start) {
        let after: Int64? = switch start {
        case .now: nil
        case .after(let id): id
        case .otherBoot: 0
        }
        let subscription = journal.subscribe(after: after) { [self] event in self.enqueue(event) }
        var first: [JournalEvent] = []
        if start == .otherBoot || subscription.gap { first.append(.cleared) }
        first += subscription.backlog.filter { filter.matches($0) }.map { JournalEvent.entry($0) }
        let closed = state.withLock { s -> Bool in
            s.subscription = subscription.id
            s.backlog = first[...]
            s.flushScheduled = true
            return s.closed
        }
        if closed {
            journal.unsubscribe(subscription.id)
            return
        }
        queue.async { self.flush() }
    }

    /// Called under the journal's lock: queue, never format or write here.
    private func enqueue(_ event: JournalEvent) {
        if case .entry(let entry) = event, !filter.matches(entry) { return }
        let schedule = state.withLock { s -> Bool in
            guard !s.closed else { return false }
            s.queue.append(event)
            if s.flushScheduled { return false }
            s.flushScheduled = true
            return true
        }
        // A few milliseconds of company: under load one write carries many entries, so open
        // consoles cost the request path little (a console shows them just as live).
        if schedule { queue.asyncAfter(deadline: .now() + Self.coalescing) { self.flush() } }
    }

    /// On the session's queue: the backlog first, a chunk at a time while the reader keeps up
    /// (so catching up on a full journal always makes progress), then live events.
    private func flush() {
        let pendingBytes = transport.pendingBytes
        enum Step { case nothing, write([JournalEvent], more: Bool), tooFarBehind }
        let step = state.withLock { s -> Step in
            s.flushScheduled = false
            guard !s.closed else { return .nothing }
            if s.queue.count > limits.maxQueuedEntries || pendingBytes > limits.maxPendingBytes { return .tooFarBehind }
            if !s.backlog.isEmpty {
                guard pendingBytes < Self.backlogChunkBytes else { return .write([], more: true) }
                let chunk = Array(s.backlog.prefix(Self.backlogChunkEntries))
                s.backlog = s.backlog.dropFirst(chunk.count)
                return .write(chunk, more: true)
            }
            let events = s.queue
            s.queue.removeAll(keepingCapacity: true)
            return .write(events, more: false)
        }
        switch step {
        case .nothing:
            return
        case .tooFarBehind:
            close()
            return
        case .write(let events, let more):
            if !events.isEmpty {
                var bytes: [UInt8] = []
                for event in events { Self.append(event, bootId: bootId, to: &bytes) }
                transport.write(bytes)
                state.withLock { $0.lastSent = MonotonicClock.microseconds() }
            }
            if more {
                // Give the reader time to take what was sent; live events wait behind the backlog.
                let delay: DispatchTimeInterval = events.isEmpty ? .milliseconds(10) : .milliseconds(0)
                queue.asyncAfter(deadline: .now() + delay) { self.flush() }
            }
        }
    }

    static let coalescing = DispatchTimeInterval.milliseconds(10)
    static let backlogChunkEntries = 200
    static let backlogChunkBytes = 256 * 1024

    private func heartbeat() {
        let idle = state.withLock { s in
            !s.closed && s.subscription != nil && MonotonicClock.microseconds() - s.lastSent >= Int64(limits.heartbeatSeconds * 1_000_000) - 50_000
        }
        guard idle else { return }
        if transport.pendingBytes > limits.maxPendingBytes {
            close()
            return
        }
        transport.write(Array(": keep-alive\n\n".utf8))
        state.withLock { $0.lastSent = MonotonicClock.microseconds() }
    }

    /// Ends the stream (a reader too far behind, or the connection went away); idempotent.
    func close() {
        let (subscription, wasClosed) = state.withLock { s -> (Int?, Bool) in
            let was = s.closed
            s.closed = true
            s.queue.removeAll()
            s.backlog = []
            defer { s.subscription = nil }
            return (s.subscription, was)
        }
        guard !wasClosed else { return }
        if let subscription { journal.unsubscribe(subscription) }
        timer.cancel()
        transport.close()
    }

    /// The SSE text of one event.
    static func append(_ event: JournalEvent, bootId: String, to bytes: inout [UInt8]) {
        switch event {
        case .entry(let entry):
            bytes.append(contentsOf: "id: \(bootId):\(entry.id)\nevent: entry\ndata: ".utf8)
            bytes.append(contentsOf: entry.jsonBytes)
            bytes.append(contentsOf: "\n\n".utf8)
        case .cleared:
            bytes.append(contentsOf: "event: reset\ndata: {}\n\n".utf8)
        }
    }
}
