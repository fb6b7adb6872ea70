import Foundation
import SystemPOSIX
import Testing

/// `--pid-file` with the built binary (issue 43.3): the server holds a lock on its pid file for its
/// life, so a file left by a process that is gone is taken over whatever process its number now
/// names, and a stopping server removes the file only while it still names the server itself.
@Suite("--pid-file belongs to the server that holds it", .serialized)
struct PidFileProcessTests {
    /// A program that is not skan-mock, running as long as the test needs it.
    private func otherProgram() throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sleep")
        process.arguments = ["120"]
        try process.run()
        return process
    }

    /// Starts `skan-mock --port 0 --pid-file PATH`, returning it once it says it listens.
    private func launch(pidFile: String) throws -> (process: Process, port: Int) {
        try SKANMockExecutable.serve(["--pid-file", pidFile])
    }

    private func contents(_ path: String) -> String? {
        try? String(contentsOfFile: path, encoding: .utf8)
    }

    private func folder() throws -> String {
        let path = NSTemporaryDirectory() + "skan-pid-file-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// A stale file naming a program that is running (or process 1) is a file no server holds: the
    /// server takes it over, and the program is not touched.
    @Test(arguments: [false, true])
    func aStaleFileNamingAnotherProgramIsTakenOver(namingProcessOne: Bool) throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let other = try otherProgram()
        defer { other.terminate() }
        let named = namingProcessOne ? 1 : other.processIdentifier
        let path = dir + "/skan-mock.pid"
        try "\(named)\n".write(toFile: path, atomically: true, encoding: .utf8)

        let (server, _) = try launch(pidFile: path)
        #expect(contents(path) == "\(server.processIdentifier)\n")
        #expect(other.isRunning)
        #expect(server.terminateAndWait(atMost: 10))
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    /// A server whose file was replaced meanwhile (removed, then written by another server) leaves
    /// the new file alone when it stops.
    @Test func aStoppingServerLeavesAFileThatNamesAnotherServer() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/skan-mock.pid"
        let (first, _) = try launch(pidFile: path)
        defer { _ = first.terminateAndWait(atMost: 10) }
        try FileManager.default.removeItem(atPath: path)
        let (second, _) = try launch(pidFile: path)
        defer { _ = second.terminateAndWait(atMost: 10) }
        #expect(contents(path) == "\(second.processIdentifier)\n")

        #expect(first.terminateAndWait(atMost: 10))
        #expect(contents(path) == "\(second.processIdentifier)\n", "the first server removed the second's pid file")
        #expect(second.terminateAndWait(atMost: 10))
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    /// Starts the server with `--pid-file PATH`, which must refuse it: what it said on standard
    /// error, once it ended with status 2 (a server that starts is stopped and fails the test).
    private func refusedStart(pidFile: String) throws -> String {
        let binary = try #require(ProcessLifecycleTests.executable)
        let process = Process()
        process.executableURL = binary
        process.arguments = ["--port", "0", "--pid-file", pidFile]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let ended = process.exits(within: 10)
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(ended, "a server given \(pidFile) as its pid file started")
        #expect(process.terminationStatus == 2)
        return said
    }

    /// A link at the pid file's path is refused, not written through.
    @Test func aLinkAtThePathIsRefused() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let victim = dir + "/victim"
        try "theirs\n".write(toFile: victim, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: dir + "/skan-mock.pid", withDestinationPath: victim)
        let said = try refusedStart(pidFile: dir + "/skan-mock.pid")
        #expect(said.contains("symbolic link"), "\(said)")
        #expect(contents(victim) == "theirs\n")
    }

    /// A hard link at the pid file's path (a second name of someone's notes) is refused too: the
    /// pid would replace what the file holds under both names (issue 47.4).
    @Test func aHardLinkAtThePathIsRefused() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let victim = dir + "/notes.txt"
        try "theirs\n".write(toFile: victim, atomically: true, encoding: .utf8)
        try FileManager.default.linkItem(atPath: victim, toPath: dir + "/skan-mock.pid")
        let said = try refusedStart(pidFile: dir + "/skan-mock.pid")
        #expect(said.contains("2 names (hard links)"), "\(said)")
        #expect(contents(victim) == "theirs\n")
        #expect(contents(dir + "/skan-mock.pid") == "theirs\n")
    }
}
