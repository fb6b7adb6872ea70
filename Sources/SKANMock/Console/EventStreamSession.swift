import Dispatch
import SKANDomain
import SystemPOSIX

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
/// cleared. The session pulls: it keeps a position in the journal and, on a serial queue of its
/// own, reads what is new, formats it and hands it to the connection, at most every `coalescing`
/// under load. Recording a request therefore costs an open console nothing but a flag check (see
/// `JournalSubscription`). A reader too far behind (more than `maxQueuedEntries` matching entries
/// waiting, or `maxPendingBytes` not yet on the socket) is closed rather than let slow down request
/// handling; it resumes with `Last-Event-ID`.
///
/// The heartbeat and the backlog's pauses run on the server's timer (`ServerTimer`), so a test
/// moves them by hand.
final class EventStreamSession: Sendable {
    struct Limits: Sendable {
        var maxQueuedEntries = 1_000
        var maxPendingBytes = 1 << 20
        /// A comment line goes out when nothing was sent for this long (a proxy with a 30-s idle
        /// timeout keeps the stream).
        var heartbeatSeconds = 15.0

        var heartbeatMicros: Int64 { Int64(heartbeatSeconds * 1_000_000) }
    }

    /// What the heartbeat timer does when it fires at `now`: send a comment when nothing was written
    /// for a whole interval, and fire next one interval after the last thing written. A timer on a
    /// fixed period would wait up to two intervals after an event (it fires, finds the stream busy,
    /// and waits a whole period again); this one keeps every silence under one interval.
    static func heartbeatStep(lastSent: Int64, now: Int64, interval: Int64) -> (comment: Bool, nextIn: Int64) {
        let silent = now - lastSent
        // A few milliseconds early counts as due: a timer that fires just before the deadline must
        // not wait a whole interval more.
        if silent >= interval - 5_000 { return (true, interval) }
        return (false, interval - silent)
    }

    private struct State: Sendable {
        /// Entries up to this id were looked at (sent, or not matching the filter).
        var cursor: Int64 = 0
        var generation = 0
        /// A stream that starts with kept entries (since_id, Last-Event-ID) catches up to the
        /// journal's last id at opening, in chunks as the reader takes them, before going live.
        var catchUpTo: Int64 = 0
        /// A reset to send before anything else (a Last-Event-ID of another boot).
        var resetFirst = false
        var closed = false
        var lastSent: Int64
        var reader: JournalSubscription?
    }

    let bootId: String
    let filter: JournalFilter
    private let journal: Journal
    private let transport: any EventStreamTransport
    private let limits: Limits
    private let queue = DispatchQueue(label: "skan-mock.console.events")
    private let state: Mutex<State>
    private let timer: ServerTimer
    /// `id: <boot>:`, the start of every entry's text.
    private let idPrefix: [UInt8]

    init(
        bootId: String, filter: JournalFilter, journal: Journal, transport: any EventStreamTransport,
        limits: Limits = Limits(), timer: ServerTimer = .dispatch
    ) {
        self.bootId = bootId
        var filter = filter
        filter.sinceId = nil
        filter.limit = nil
        self.filter = filter
        self.journal = journal
        self.transport = transport
        self.limits = limits
        idPrefix = Array("id: \(bootId):".utf8)
        self.timer = timer
        state = Mutex(State(lastSent: timer.now()))
        scheduleHeartbeat(inMicros: limits.heartbeatMicros)
    }

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

    /// Registers with the journal and starts sending; call once.
    func open(_ start: Start) {
        let clearedThrough = journal.clearedThrough(filter.tenant)
        let (reader, position) = journal.addReader(tenant: filter.tenant) { [weak self] in self?.scheduleFlush() }
        let closed = state.withLock { s -> Bool in
            s.reader = reader
            s.generation = position.generation
            s.catchUpTo = position.lastId
            switch start {
            case .now: s.cursor = position.lastId
            // An id past the last one (a since_id from the future) waits for nothing: live from now.
            case .after(let id):
                s.cursor = min(max(id, 0), position.lastId)
                // It showed entries a reset or DELETE has removed since: it must clear them first.
                if id > 0 && id <= clearedThrough { s.resetFirst = true }
            case .otherBoot:
                s.cursor = 0
                s.resetFirst = true
            }
            return s.closed
        }
        if closed {
            journal.removeReader(reader)
            return
        }
        queue.async { self.flush() }
    }

    /// Called under the journal's lock by a commit or a clear: only schedule.
    private func scheduleFlush() {
        // A few milliseconds of company: under load one write carries many entries, so open
        // consoles cost the request path little (a console shows them just as live).
        queue.asyncAfter(deadline: .now() + Self.coalescing) { self.flush() }
    }

    /// On the session's queue: what is new since the last flush, formatted and handed over. While
    /// catching up, a chunk at a time as the reader takes them (so catching up on a full journal
    /// always makes progress); then live, everything new at once, after which the session arms
    /// itself to be woken by the next commit.
    private func flush() {
        let pendingBytes = transport.pendingBytes
        guard let at = state.withLock({ s in s.closed ? nil : s }), let reader = at.reader else { return }
        let cursor = at.cursor
        if pendingBytes > limits.maxPendingBytes {
            close()
            return
        }
        let catchingUp = cursor < at.catchUpTo
        if catchingUp && pendingBytes >= Self.backlogChunkBytes {
            // Give the reader time to take what was sent.
            timer.after(Self.backlogPauseMilliseconds) { self.queue.async { self.flush() } }
            return
        }
        if !catchingUp { reader.arm() }
        // At most a chunk's bytes at a time, live or not: entries can be large (a long form is
        // journaled whole but for its values), and 200 of them once made one write of a whole
        // 64 MiB journal, held for a console that never read until the write timeout.
        let reading = journal.read(
            after: cursor, generation: at.generation, matching: filter, through: catchingUp ? at.catchUpTo : nil,
            limit: catchingUp ? Self.backlogChunkEntries : limits.maxQueuedEntries + 1,
            maxBytes: Self.backlogChunkBytes)
        if !catchingUp && reading.entries.count > limits.maxQueuedEntries {
            close()
            return
        }
        var bytes: [UInt8] = []
        if at.resetFirst || reading.reset {
            bytes.append(contentsOf: Self.resetEvent)
        }
        if !reading.entries.isEmpty {
            var size = bytes.count
            for entry in reading.entries { size += idPrefix.count + entry.line.count + 40 }
            bytes.reserveCapacity(size)
            for entry in reading.entries { append(entry, to: &bytes) }
        }
        let stillOpen = state.withLock { s -> Bool in
            guard !s.closed else { return false }
            s.cursor = reading.cursor
            s.generation = reading.generation
            s.resetFirst = false
            if !bytes.isEmpty { s.lastSent = timer.now() }
            return true
        }
        guard stillOpen else { return }
        if !bytes.isEmpty { transport.write(bytes) }
        if catchingUp || reading.more {
            // The rest of the backlog, or the live entries that came meanwhile (a live reader too
            // far behind in bytes is closed by the next flush, past `maxPendingBytes`).
            queue.async { self.flush() }
        }
    }

    /// The SSE text of one entry: `id: <boot>:<id>`, `event: entry`, `data: <the entry's JSON>`.
    private func append(_ entry: JournalEntry, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: idPrefix)
        bytes.append(contentsOf: String(entry.id).utf8)
        bytes.append(contentsOf: Self.entryEventData)
        bytes.append(contentsOf: entry.jsonBytes)
        bytes.append(10)
        bytes.append(10)
    }

    private static let entryEventData = Array("\nevent: entry\ndata: ".utf8)
    static let resetEvent = Array("event: reset\ndata: {}\n\n".utf8)
    static let coalescing = DispatchTimeInterval.milliseconds(10)
    static let backlogChunkEntries = 200
    static let backlogChunkBytes = 256 * 1024
    /// How long a backlog waits for the reader to take a chunk before it looks again.
    static let backlogPauseMilliseconds = 10

    /// On the session's queue, when the timer fires: a comment if the stream was silent a whole
    /// interval, and the timer set again for one interval after the last thing written.
    private func heartbeat() {
        let now = timer.now()
        let step = state.withLock { s -> (comment: Bool, nextIn: Int64)? in
            guard !s.closed else { return nil }
            let step = Self.heartbeatStep(lastSent: s.lastSent, now: now, interval: limits.heartbeatMicros)
            // Not started yet (no reader): only wait.
            return s.reader == nil ? (false, step.nextIn) : step
        }
        guard let step else { return }
        if step.comment {
            if transport.pendingBytes > limits.maxPendingBytes {
                close()
                return
            }
            transport.write(Array(": keep-alive\n\n".utf8))
            state.withLock { $0.lastSent = timer.now() }
        }
        scheduleHeartbeat(inMicros: step.nextIn)
    }

    /// The heartbeat again in `micros` (rounded up to a millisecond), on the session's queue; one
    /// set before `close` lapses.
    private func scheduleHeartbeat(inMicros micros: Int64) {
        timer.after(Int((micros + 999) / 1_000)) { [weak self] in
            guard let self else { return }
            queue.async { self.heartbeat() }
        }
    }

    /// Ends the stream (a reader too far behind, or the connection went away); idempotent.
    func close() {
        let (reader, wasClosed) = state.withLock { s -> (JournalSubscription?, Bool) in
            let was = s.closed
            s.closed = true
            defer { s.reader = nil }
            return (s.reader, was)
        }
        guard !wasClosed else { return }
        if let reader { journal.removeReader(reader) }
        transport.close()
    }
}
