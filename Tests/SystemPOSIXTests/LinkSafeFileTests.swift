import Foundation
import SystemPOSIX
import Testing

/// Files written or changed by path never write through a symbolic link someone planted there
/// (issue 43.12): the link is refused or replaced, the file it names left alone.
@Suite struct LinkSafeFileTests {
    private func folder() throws -> String {
        let path = NSTemporaryDirectory() + "skan-link-safe-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func anAtomicWriteDoesNotWriteThroughALinkAtItsTemporaryName() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let victim = dir + "/victim"
        try Data("theirs\n".utf8).write(to: URL(fileURLWithPath: victim))
        let path = dir + "/file"
        try FileManager.default.createSymbolicLink(
            atPath: System.temporaryPath(for: path), withDestinationPath: victim)
        try System.writeFileAtomically(path, Array("mine\n".utf8), mode: 0o600)
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "theirs\n")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "mine\n")
    }

    @Test func aLinkIsNeitherOpenedNorMadePrivate() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let victim = dir + "/victim"
        try Data("theirs\n".utf8).write(to: URL(fileURLWithPath: victim))
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: victim)
        try FileManager.default.createSymbolicLink(atPath: dir + "/link", withDestinationPath: victim)
        #expect(System.isSymbolicLink(dir + "/link"))
        #expect(!System.isSymbolicLink(victim))
        #expect(throws: SystemError.self) { try System.openWithoutFollowing(dir + "/link") }
        do {
            _ = try System.openWithoutFollowing(dir + "/link")
        } catch {
            #expect(error.isSymbolicLink)
        }
        let fd = try System.openWithoutFollowing(victim)
        defer { System.close(fd) }
        #expect(System.permissions(fd) == 0o644)
        #expect(System.setPermissions(fd, 0o600) == nil)
        #expect(System.permissions(victim) == 0o600)
    }
}
