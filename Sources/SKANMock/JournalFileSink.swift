import Dispatch
import SKANDomain
import Synchronization
import SystemPOSIX

/// Writes journal lines to a file or standard output without making requests wait for the disk.
///
/// `write(line:)` only appends to a buffer under a short lock (the journal calls it in id order);
/// one writer at a time takes the whole buffer and writes it with plain `write(2)` calls, so lines
/// are never interleaved or split, and a reader (`tail -f`, a test) sees each line as soon as it is
/// written: there is no user-space buffering to flush. Under load, lines are batched into one
/// write; when idle, each line goes out at once.
///
/// For a regular file the writer is the recording thread itself, right after the journal's lock
/// (`afterRecord`): a write to the page cache does not wait for the disk, and handing each batch to
/// another thread cost a thread wake-up per request. A pipe or terminal (`--log -`) can block for
/// as long as its reader likes, so there the writer is a queue of its own.
public final class JournalFileSink: JournalSink {
    private let fd: Int32
    private let ownsDescriptor: Bool
    /// A regular file: written on the recording thread (see above).
    private let writesInline: Bool
    private let queue = DispatchQueue(label: "skan-mock.journal.writer")
    private let pending = Mutex(Pending())

    private struct Pending {
        var bytes: [UInt8] = []
        var scheduled = false
    }

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
        writesInline = System.isRegularFile(fd)
    }

    deinit {
        if ownsDescriptor { System.close(fd) }
    }

    public func write(line: [UInt8]) {
        if writesInline {
            pending.withLock { $0.bytes.append(contentsOf: line) }
            return
        }
        let schedule = pending.withLock { pending -> Bool in
            pending.bytes.append(contentsOf: line)
            defer { pending.scheduled = true }
            return !pending.scheduled
        }
        if schedule { queue.async { self.drain() } }
    }

    /// A regular file: unless another thread is writing (it will take these lines too), write now.
    public func afterRecord() {
        guard writesInline, claimWriter() == .claimed else { return }
        drain()
    }

    private enum Claim { case claimed, busy, nothingToWrite }

    private func claimWriter() -> Claim {
        pending.withLock { pending in
            if pending.scheduled { return .busy }
            if pending.bytes.isEmpty { return .nothingToWrite }
            pending.scheduled = true
            return .claimed
        }
    }

    /// Blocks until every line handed over so far is written.
    public func flush() {
        guard writesInline else {
            queue.sync { drain() }
            return
        }
        while true {
            switch claimWriter() {
            case .claimed: drain()
            case .busy: System.sleep(microseconds: 100)
            case .nothingToWrite: return
            }
        }
    }

    private func drain() {
        while true {
            let batch = pending.withLock { pending -> [UInt8] in
                if pending.bytes.isEmpty {
                    pending.scheduled = false
                    return []
                }
                var taken: [UInt8] = []
                swap(&taken, &pending.bytes)
                return taken
            }
            if batch.isEmpty { return }
            writeAll(batch)
        }
    }

    private func writeAll(_ bytes: [UInt8]) {
        if let failure = StandardStreams.writeAll(bytes, to: fd) {
            // The disk is full or the pipe is gone: say so once per batch, keep serving.
            StandardStreams.error("skan-mock: journal write failed: \(failure.reason)")
        }
    }
}
