import Foundation
import SystemPOSIX
import Testing

/// The lock a process holds on its pid file for its life (issue 43.3), without following a link.
/// Who holds it from another process is proved with the real binary (`PidFileProcessTests`).
@Suite struct HeldLockTests {
    private func folder() throws -> String {
        let path = NSTemporaryDirectory() + "skan-held-lock-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// A link is refused; the lock is taken; the file is replaced in place (same inode, so the
    /// lock stays on it), and a file put in its place is told apart.
    @Test func aHeldLockNamesItsHolderAndTheFileIsReplacedInPlace() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/server.pid"
        try FileManager.default.createSymbolicLink(atPath: dir + "/link.pid", withDestinationPath: path)
        #expect(throws: SystemError.self) { try System.openForLocking(dir + "/link.pid", mode: 0o644) }
        #expect(!FileManager.default.fileExists(atPath: path))

        let fd = try System.openForLocking(path, mode: 0o644)
        defer { System.close(fd) }
        #expect(try System.lockRecord(fd) == .acquired)
        #expect(System.replaceContents(fd, Array("12345\n".utf8)) == nil)
        #expect(System.replaceContents(fd, Array("7\n".utf8)) == nil)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "7\n")
        #expect(System.contents(fd, limit: 64) == Array("7\n".utf8))
        #expect(System.isSameFile(fd, path))
        try FileManager.default.removeItem(atPath: path)
        try Data("8\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(!System.isSameFile(fd, path))
    }
}
