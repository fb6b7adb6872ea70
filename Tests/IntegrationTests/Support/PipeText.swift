import Foundation

/// What a process writes to a pipe, read as it comes on a thread of its own, so a test waits for a
/// line the process says (a state it reached) as for an event, not by polling on a clock.
///
/// `@unchecked Sendable`: `text` and `ended` are read and written only under `condition`'s lock.
final class PipeText: @unchecked Sendable {
    private let condition = NSCondition()
    private var text = ""
    private var ended = false

    /// Starts reading `pipe` until its writer closes it.
    init(_ pipe: Pipe) {
        let handle = pipe.fileHandleForReading
        let reading = Reading(handle: handle)
        Thread.detachNewThread { [self] in
            while true {
                let chunk = reading.handle.availableData
                condition.lock()
                if chunk.isEmpty { ended = true } else { text += String(decoding: chunk, as: UTF8.self) }
                condition.broadcast()
                condition.unlock()
                if chunk.isEmpty { return }
            }
        }
    }

    /// Waits until the text holds `needle` (at most `seconds`, or until the pipe ends); whether it does.
    func wait(for needle: String, within seconds: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        condition.lock()
        defer { condition.unlock() }
        while !text.contains(needle) && !ended {
            guard condition.wait(until: deadline) else { break }
        }
        return text.contains(needle)
    }

    /// Everything, once the pipe has ended (the process exited).
    func all() -> String {
        condition.lock()
        defer { condition.unlock() }
        while !ended { condition.wait() }
        return text
    }

    /// A file handle to read on another thread: `FileHandle` is not `Sendable` in every Foundation
    /// this package builds with, and its reads may come from any one thread.
    private struct Reading: @unchecked Sendable {
        let handle: FileHandle
    }
}
