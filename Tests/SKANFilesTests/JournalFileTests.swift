import Foundation
import SKANDomain
import Testing

@testable import SKANFiles

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A journal file read as a stream: regular files only (a FIFO or a device is refused before a
/// byte is read), and every line of a file larger than the reader's chunks comes back.
@Suite("Journal files as a stream")
struct JournalFileTests {
    private func refusal(_ path: String) -> String? {
        do {
            _ = try JournalFile(path: path)
            return nil
        } catch {
            return error.reason
        }
    }

    @Test func aFIFOOrADeviceIsRefused() throws {
        let path = NSTemporaryDirectory() + "skan-mock-journalfile-\(UUID().uuidString).fifo"
        try #require(mkfifo(path, 0o600) == 0)
        defer { unlink(path) }
        #expect(refusal(path) == "a FIFO (named pipe), not a regular file; give a file")
        #expect(refusal("/dev/zero") == "a character device, not a regular file; give a file")
        #expect(refusal("/no/such/journal.jsonl")?.contains("No such file") == true)
    }

    @Test func aFileLargerThanAChunkIsReadWhole() throws {
        let path = NSTemporaryDirectory() + "skan-mock-journalfile-\(UUID().uuidString).jsonl"
        defer { unlink(path) }
        let padding = String(repeating: "x", count: 1000)
        let text = (1...2000).map { #"{"id":\#($0),"pad":"\#(padding)"}"# }.joined(separator: "\n") + "\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        var reader = try JournalFile.reader(path)
        var ids: [Int64] = []
        while let line = try reader.next() {
            if case .entry(let record, _, _) = line { ids.append(record.id) }
        }
        #expect(ids == Array(1...2000))
        #expect(reader.offset == Int64(text.utf8.count))
    }
}
