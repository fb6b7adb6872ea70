import Foundation
import Testing

@testable import SKANFiles

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Issue 30.11: whole-file reads take regular files only, up to a limit the error names.
@Suite("Whole-file reads")
struct FileBytesTests {
    private func reason(_ path: String, limit: Int = FileBytes.defaultLimit) -> String? {
        do {
            _ = try FileBytes.read(path, limit: limit)
            return nil
        } catch {
            #expect(error.path == path)
            return error.reason
        }
    }

    private func temporaryPath(_ name: String) -> String {
        NSTemporaryDirectory() + "skan-mock-filebytes-\(UUID().uuidString)-\(name)"
    }

    @Test func aFIFOIsRefusedWithoutWaitingForAWriter() throws {
        let path = temporaryPath("fifo")
        try #require(mkfifo(path, 0o600) == 0)
        defer { unlink(path) }
        #expect(reason(path) == "a FIFO (named pipe), not a regular file; give a file")
    }

    @Test func devicesAndFoldersAreRefused() {
        #expect(reason("/dev/zero") == "a character device, not a regular file; give a file")
        #expect(reason(NSTemporaryDirectory()) == "a folder, not a regular file; give a file")
    }

    @Test func aFileOverTheLimitIsRefusedBeforeItIsRead() throws {
        // 200 MB, sparse: refused from its size, so no byte of it is read.
        let path = temporaryPath("big.json")
        try #require(FileManager.default.createFile(atPath: path, contents: Data("{".utf8)))
        defer { unlink(path) }
        try #require(truncate(path, 200 << 20) == 0)
        #expect(reason(path) == "larger than the limit of 64 MiB for this file (200 MiB)")
    }

    @Test func aFileWithinTheLimitIsReadWhole() throws {
        let path = temporaryPath("small.json")
        try #require(FileManager.default.createFile(atPath: path, contents: Data("{}\n".utf8)))
        defer { unlink(path) }
        #expect(try FileBytes.read(path) == Array("{}\n".utf8))
        #expect(reason(path, limit: 2) == "larger than the limit of 2 bytes for this file (3 bytes)")
    }

    @Test func sizesAreWrittenInTheirLargestWholeUnit() {
        #expect(FileBytes.byteText(64 << 20) == "64 MiB")
        #expect(FileBytes.byteText(1 << 30) == "1 GiB")
        #expect(FileBytes.byteText(1536) == "1.5 KiB")
        #expect(FileBytes.byteText(12) == "12 bytes")
    }
}
