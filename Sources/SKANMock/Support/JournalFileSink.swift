import Dispatch
import SKANDomain
import SKANFiles
import SystemPOSIX

/// Writes journal lines to a file or standard output in batches (group commit), without making
/// requests wait for the disk or wake a thread each.
///
/// `write(line:)` keeps a reference to the line under a short lock (the journal calls it in id
/// order, under its own lock, so nothing is copied there). The first line of a batch wakes the
/// batcher, a thread of the sink's own waiting on a semaphore (one futex wake, instead of arming
/// a dispatch timer, which costs the timer thread five system calls a batch); it lets
/// `batchWindow` pass, then the writer takes the lines, joins them in its own buffer and writes
/// that with plain `write(2)` calls, so lines are never interleaved or split. Under load that is
/// one write and one wake-up per batch instead of per request; when idle, a line reaches the file
/// within the window (`tail -f` sees it at once, to the eye). `flush()` writes what is pending right away: a wait that reports a line, and a
/// stopping server, find it in the file.
///
/// A write that fails (a full disk, a file-size limit, a closed pipe) leaves no partial line: the
/// file is cut back to its last whole line, the batch is kept and written again, in order, once
/// writing works (retried every second, and with every new batch); the failure is said once on
/// standard error, and its state (since when, why, lines waiting, lines given up) is in `status`
/// for `/__admin/health` and the metrics. The in-memory journal never depends on the file.
public final class JournalFileSink: JournalSink {
    /// How long the first line of a batch waits for company.
    public static let batchWindow = DispatchTimeInterval.milliseconds(2)
    private static let batchWindowMicroseconds: UInt32 = 2_000

    private let fd: Int32
    private let path: String
    private let ownsDescriptor: Bool
    /// A regular file can be cut back after a partial write; a pipe cannot.
    private let isRegularFile: Bool
    private let queue = DispatchQueue(label: "skan-mock.journal.writer")
    private let pending = Mutex(Pending())
    /// Signalled by the first line of a batch; the batcher waits on it.
    private let batchStarted = DispatchSemaphore(value: 0)
    private let closing = Atomic<Bool>(false)

    private struct Pending {
        var lines: [[UInt8]] = []
        var armed = false
        /// The list taken last time, emptied: the next batch fills it, so under load two lists
        /// take turns instead of a new one growing per batch.
        var spare: [[UInt8]] = []
    }

    /// The writer's buffer; `nonisolated(unsafe)` because only `queue` touches it.
    private nonisolated(unsafe) var joined: [UInt8] = []
    /// Lines a failed write left, oldest first, written before any newer one; writer queue only.
    private nonisolated(unsafe) var backlog: [[UInt8]] = []
    private nonisolated(unsafe) var backlogBytes = 0
    private nonisolated(unsafe) var retryArmed = false
    /// Set by `close()`; writer queue only.
    private nonisolated(unsafe) var closed = false
    private let published = Mutex(Status())

    /// The file's state, for health and metrics.
    public struct Status: Sendable, Equatable {
        /// When writing began to fail (milliseconds since 1970); nil while it works.
        public var failingSince: Int64?
        public var reason: String?
        /// Lines kept in memory until writing works again.
        public var waiting = 0
        /// Lines given up because the backlog was full, since the start.
        public var lost: Int64 = 0

        public var isFailing: Bool { failingSince != nil }
    }

    /// The journal file's state now.
    public var status: Status { published.withLock { $0 } }

    /// The most a failing file's backlog holds before its oldest lines are given up.
    static let backlogLimit = 64 << 20
    /// How often a failing file is tried again when no new line comes.
    static let retryInterval = DispatchTimeInterval.seconds(1)

    /// A buffer bigger than this is let go after its batch (a burst should not stay resident).
    private static let spareLimit = 4 << 20
    /// The same for the list of lines taken per batch.
    private static let spareLineLimit = 4096

    public struct OpenFailure: Error, CustomStringConvertible {
        public let path: String
        public let reason: String
        public var description: String { "cannot open journal log \(path): \(reason)" }
    }

    /// `-` is standard output; anything else a file, created if needed and appended to.
    public init(path: String) throws(OpenFailure) {
        self.path = path
        if path == "-" {
            fd = System.standardOutput
            ownsDescriptor = false
        } else {
            do {
                fd = try System.openForAppending(path)
            } catch {
                throw OpenFailure(path: path, reason: error.reason)
            }
            ownsDescriptor = true
        }
        isRegularFile = System.isRegularFile(fd)
        let (batchStarted, closing) = (self.batchStarted, self.closing)
        // A serial queue of its own: the block keeps its thread (serial queues overcommit).
        DispatchQueue(label: "skan-mock.journal.batcher").async { [weak self] in
            while true {
                batchStarted.wait()
                guard !closing.load(ordering: .acquiring) else { return }
                System.sleep(microseconds: Self.batchWindowMicroseconds)
                guard let sink = self else { return }
                sink.queue.sync { sink.drain() }
            }
        }
    }

    deinit {
        closing.store(true, ordering: .releasing)
        batchStarted.signal()
        if ownsDescriptor && !closed { System.close(fd) }
    }

    public func write(line: [UInt8]) {
        let arm = pending.withLock { pending -> Bool in
            pending.lines.append(line)
            defer { pending.armed = true }
            return !pending.armed
        }
        if arm { batchStarted.signal() }
    }

    /// Blocks until every line handed over so far is written.
    public func flush() {
        queue.sync { drain() }
    }

    /// Writes what is pending, then closes the file: the server's last part to stop, so that the
    /// descriptor is given back when the server stops, or its start fails, not when the sink's
    /// last reference goes. Lines handed over later are dropped; closing twice closes once.
    public func close() {
        queue.sync {
            drain()
            guard !closed else { return }
            closed = true
            if ownsDescriptor { System.close(fd) }
        }
        closing.store(true, ordering: .releasing)
        batchStarted.signal()
    }

    /// Whether `close()` ran.
    public var isClosed: Bool { queue.sync { closed } }

    /// Writes what is pending on the writer queue, then runs `then` there; the caller goes on.
    public func flush(then: @escaping @Sendable () -> Void) {
        queue.async {
            self.drain()
            then()
        }
    }

    /// On the writer queue: the backlog, then the new lines, in as few writes as the kernel takes.
    private func drain() {
        var batch = pending.withLock { pending -> [[UInt8]] in
            pending.armed = false
            var taken = pending.spare
            pending.spare = []
            swap(&taken, &pending.lines)
            return taken
        }
        guard !closed, !batch.isEmpty || !backlog.isEmpty else { return }
        joined.removeAll(keepingCapacity: true)
        for line in backlog { joined.append(contentsOf: line) }
        for line in batch { joined.append(contentsOf: line) }
        let sizeBefore = isRegularFile ? System.fileSize(fd) : nil
        if let failure = StandardStreams.writeAll(joined, to: fd) {
            // No partial line stays: the next good write must begin on a line of its own.
            if let sizeBefore { _ = System.truncate(fd, to: sizeBefore) }
            keep(batch, failure: failure)
        } else if !backlog.isEmpty || status.isFailing {
            recovered()
        }
        if joined.capacity > Self.spareLimit { joined = [] }
        batch.removeAll(keepingCapacity: batch.capacity <= Self.spareLineLimit)
        pending.withLock { $0.spare = batch }
    }

    /// After a failed write: the lines wait (the oldest given up past the limit), the failure is
    /// said once, and a retry is armed.
    private func keep(_ batch: [[UInt8]], failure: SystemError) {
        for line in batch {
            backlog.append(line)
            backlogBytes += line.count
        }
        var given = 0
        while backlogBytes > Self.backlogLimit, !backlog.isEmpty {
            backlogBytes -= backlog.removeFirst().count
            given += 1
        }
        let first = published.withLock { status -> Bool in
            let first = status.failingSince == nil
            if first { status.failingSince = System.realtimeMilliseconds() }
            status.reason = failure.reason
            status.waiting = backlog.count
            status.lost += Int64(given)
            return first
        }
        if first {
            StandardStreams.error(
                "skan-mock: journal log \(path): writing failed (\(failure.reason)); lines are kept in memory and written in order once it works again (GET /__admin/health says how many wait)"
            )
        }
        if !retryArmed {
            retryArmed = true
            queue.asyncAfter(deadline: .now() + Self.retryInterval) {
                self.retryArmed = false
                self.drain()
            }
        }
    }

    /// Writing works again: the backlog is in the file, in order; said once.
    private func recovered() {
        let written = backlog.count
        backlog = []
        backlogBytes = 0
        let lost = published.withLock { status -> Int64 in
            status.failingSince = nil
            status.reason = nil
            status.waiting = 0
            return status.lost
        }
        StandardStreams.error(
            "skan-mock: journal log \(path): writing works again; \(written) waiting lines written in order"
                + (lost > 0 ? ", \(lost) given up since the start" : ""))
    }
}
