import Dispatch
import SKANDomain
import Synchronization
import SystemPOSIX

/// Writes journal lines to a file or standard output in batches (group commit), without making
/// requests wait for the disk or wake a thread each.
///
/// `write(line:)` keeps a reference to the line under a short lock (the journal calls it in id
/// order, under its own lock, so nothing is copied there). The first line of a batch arms a
/// one-shot timer on the writer queue; when it fires, `batchWindow` later, the writer takes the
/// lines, joins them in its own buffer and writes that with plain `write(2)` calls, so lines are
/// never interleaved or split. Under load that is one write and one wake-up per batch instead of
/// per request; when idle, a line reaches the file within the window (`tail -f` sees it at once,
/// to the eye). `flush()` writes what is pending right away: a wait that reports a line, and a
/// stopping server, find it in the file.
public final class JournalFileSink: JournalSink {
    /// How long the first line of a batch waits for company.
    public static let batchWindow = DispatchTimeInterval.milliseconds(2)

    private let fd: Int32
    private let ownsDescriptor: Bool
    private let queue = DispatchQueue(label: "skan-mock.journal.writer")
    private let pending = Mutex(Pending())

    private struct Pending {
        var lines: [[UInt8]] = []
        var armed = false
        /// The list taken last time, emptied: the next batch fills it, so under load two lists
        /// take turns instead of a new one growing per batch.
        var spare: [[UInt8]] = []
    }

    /// The writer's buffer; `nonisolated(unsafe)` because only `queue` touches it.
    private nonisolated(unsafe) var joined: [UInt8] = []

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
    }

    deinit {
        if ownsDescriptor { System.close(fd) }
    }

    public func write(line: [UInt8]) {
        let arm = pending.withLock { pending -> Bool in
            pending.lines.append(line)
            defer { pending.armed = true }
            return !pending.armed
        }
        if arm { queue.asyncAfter(deadline: .now() + Self.batchWindow) { self.drain() } }
    }

    /// Blocks until every line handed over so far is written.
    public func flush() {
        queue.sync { drain() }
    }

    /// On the writer queue: the whole buffer, in as few writes as the kernel takes.
    private func drain() {
        var batch = pending.withLock { pending -> [[UInt8]] in
            pending.armed = false
            var taken = pending.spare
            pending.spare = []
            swap(&taken, &pending.lines)
            return taken
        }
        guard !batch.isEmpty else { return }
        joined.removeAll(keepingCapacity: true)
        for line in batch { joined.append(contentsOf: line) }
        if let failure = StandardStreams.writeAll(joined, to: fd) {
            // The disk is full or the pipe is gone: say so once per batch, keep serving.
            StandardStreams.error("skan-mock: journal write failed: \(failure.reason)")
        }
        if joined.capacity > Self.spareLimit { joined = [] }
        batch.removeAll(keepingCapacity: batch.capacity <= Self.spareLineLimit)
        pending.withLock { $0.spare = batch }
    }
}
