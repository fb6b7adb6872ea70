import Dispatch
import Foundation
import SystemPOSIX
import Testing

@testable import SKANMock

/// The journal file's writer: `flush(then:)` never blocks its caller (an event loop deciding a
/// `/__admin/requests/wait` answer, issue 33) and runs `then` once the lines are in the file.
@Suite struct JournalFileSinkTests {
    @Test func flushThenWritesFirstAndDoesNotBlockTheCaller() throws {
        let path = NSTemporaryDirectory() + "skan-sink-\(UUID().uuidString).jsonl"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let sink = try JournalFileSink(path: path)
        sink.write(line: Array("{\"id\":1}\n".utf8))
        sink.write(line: Array("{\"id\":2}\n".utf8))
        let seen = Mutex<String?>(nil)
        let done = DispatchSemaphore(value: 0)
        sink.flush {
            seen.withLock { $0 = try? String(contentsOfFile: path, encoding: .utf8) }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(seen.withLock { $0 } == "{\"id\":1}\n{\"id\":2}\n")
    }
}
