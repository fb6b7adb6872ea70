import Foundation
import SystemPOSIX
import Testing

/// `Scripts/xcode-pre-action.sh` with the built binary (issue 31.4): it stops only the server it
/// started before (by `--pid-file`, not `pkill`), and fails in one clear line when the port is
/// another server's instead of leaving the tests to talk to it.
@Suite("The Xcode pre-action script and --pid-file", .serialized)
struct PreActionScriptTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
            "Scripts/xcode-pre-action.sh")

    /// A port nobody listens on now.
    func freePort() throws -> Int {
        let fd = try System.listen(host: "127.0.0.1", port: 0, backlog: 1)
        defer { System.close(fd) }
        return System.localPort(fd)
    }

    /// Runs the script through the shell, as Xcode does; on Linux with `system`, because
    /// Foundation's `Process.waitUntilExit` there also waits for the server the script leaves
    /// running in the background. `dir` nil leaves the folder to the script (under `tmp`, as
    /// `TMPDIR`, when given).
    func run(port: Int, dir: String?, tmp: String? = nil) throws -> (status: Int32, said: String) {
        let binary = try #require(ProcessLifecycleTests.executable)
        let said = NSTemporaryDirectory() + "skan-pre-action-\(UUID().uuidString).txt"
        defer { try? FileManager.default.removeItem(atPath: said) }
        var command =
            "env -u SKAN_MOCK_ADMIN_TOKEN -u SKAN_MOCK_PRE_ACTION_DIR SKAN_MOCK_BINARY='\(binary.path)' SKAN_MOCK_PORT=\(port) "
        if let dir { command += "SKAN_MOCK_PRE_ACTION_DIR='\(dir)' " }
        if let tmp { command += "TMPDIR='\(tmp)' " }
        command += "/bin/bash '\(Self.script.path)' >/dev/null 2>'\(said)'"
        #if os(Linux)
            let status = (system(command) >> 8) & 0xFF
        #else
            // Darwin's `system` is unavailable to Swift; its Process does not wait for the server.
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", command]
            try process.run()
            process.waitUntilExit()
            let status = process.terminationStatus
        #endif
        let text = (try? String(contentsOfFile: said, encoding: .utf8)) ?? ""
        return (status, text)
    }

    func pid(in dir: String) -> Int32? {
        (try? String(contentsOfFile: dir + "/skan-mock.pid", encoding: .utf8)).flatMap {
            Int32($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    @Test func restartsItsOwnServerAndRefusesAPortTakenByAnother() throws {
        let port = try freePort()
        let dir = NSTemporaryDirectory() + "skan-pre-action-\(UUID().uuidString)"
        let other = NSTemporaryDirectory() + "skan-pre-action-\(UUID().uuidString)"
        defer {
            for folder in [dir, other] {
                if let pid = pid(in: folder) { kill(pid, SIGTERM) }
                try? FileManager.default.removeItem(atPath: folder)
            }
        }
        let first = try run(port: port, dir: dir)
        #expect(first.status == 0, "\(first.said)")
        let firstPid = try #require(pid(in: dir))
        #expect(try CurlClient().get("http://127.0.0.1:\(port)/__admin/health").status == 200)

        // Run again: the server it started is stopped, a new one serves.
        let second = try run(port: port, dir: dir)
        #expect(second.status == 0, "\(second.said)")
        let secondPid = try #require(pid(in: dir))
        #expect(secondPid != firstPid)
        // Stopped (a zombie until whoever adopted it reaps it).
        #expect(gone(firstPid, within: 5))

        // Another project's pre-action (another folder) finds the port taken: one line, exit 1,
        // and the first project's server is left alone.
        let third = try run(port: port, dir: other)
        #expect(third.status == 1)
        #expect(third.said.contains("the server did not start") && third.said.contains("\(port)"))
        #expect(System.processExists(secondPid))

        // The pid file names a running server: a second server given the same file is refused.
        let binary = try #require(ProcessLifecycleTests.executable)
        let refused = Process()
        refused.executableURL = binary
        refused.arguments = ["--port", "0", "--pid-file", dir + "/skan-mock.pid"]
        let errors = Pipe()
        refused.standardError = errors
        refused.standardOutput = FileHandle.nullDevice
        try refused.run()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        refused.waitUntilExit()
        #expect(refused.terminationStatus == 2)
        #expect(said.contains("names process \(secondPid), which is still running"))

        // Stopped with SIGTERM, the server removes its pid file.
        kill(secondPid, SIGTERM)
        for _ in 0..<100 where FileManager.default.fileExists(atPath: dir + "/skan-mock.pid") { usleep(50_000) }
        #expect(!FileManager.default.fileExists(atPath: dir + "/skan-mock.pid"))
    }

    /// A program that is not skan-mock, running as long as the test needs it; told to stop
    /// (SIGTERM, SIGINT, SIGHUP), it first writes `marker`, so a test knows whether it was signalled.
    /// Perl, because it can take signals the test process ignores or blocks (both are inherited,
    /// and a shell cannot trap a signal ignored when it started).
    func otherProgram(marker: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/perl")
        process.arguments = [
            "-MPOSIX", "-e",
            "$SIG{$_} = sub { open(my $f, '>', $ARGV[0]); close($f); exit 0 } for qw(TERM INT HUP); "
                + "sigprocmask(SIG_UNBLOCK, POSIX::SigSet->new(SIGTERM, SIGINT, SIGHUP)); sleep 120;",
            marker
        ]
        try process.run()
        return process
    }

    /// Whether the program of `otherProgram(marker:)` was signalled.
    func signalled(_ marker: String) -> Bool { FileManager.default.fileExists(atPath: marker) }

    /// The process ids the script said it started ("(pid N; ...").
    func servedPid(_ said: String) -> Int32? {
        guard let range = said.range(of: "(pid ") else { return nil }
        return Int32(said[range.upperBound...].prefix { $0.isNumber })
    }

    /// Waits at most `seconds` for `pid` to be gone.
    func gone(_ pid: Int32, within seconds: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while System.processExists(pid) && Date() < deadline { usleep(20_000) }
        return !System.processExists(pid)
    }

    func makeFolder(_ path: String, mode: Int = 0o700) throws {
        try FileManager.default.createDirectory(
            atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: mode])
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
    }

    func text(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }

    /// Another local user's links where an earlier script kept its files (`$TMPDIR/skan-mock-PORT`):
    /// the script uses a folder of its own (`$TMPDIR/skan-mock-UID-PORT`, mode 0700), truncates and
    /// appends to nothing of theirs and signals nothing their pid file names (issue 43.2).
    @Test func anotherUsersFolderOfLinksIsNeverUsed() throws {
        let port = try freePort()
        let tmp = NSTemporaryDirectory() + "skan-pre-action-tmp-\(UUID().uuidString)"
        let victims = NSTemporaryDirectory() + "skan-pre-action-victims-\(UUID().uuidString)"
        let own = tmp + "/skan-mock-\(getuid())-\(port)"
        let marker = victims + "-signalled"
        let other = try otherProgram(marker: marker)
        defer {
            other.terminate()
            if let pid = pid(in: own) { kill(pid, SIGTERM) }
            try? FileManager.default.removeItem(atPath: tmp)
            try? FileManager.default.removeItem(atPath: victims)
            try? FileManager.default.removeItem(atPath: marker)
        }
        try makeFolder(tmp, mode: 0o1777)
        try makeFolder(victims)
        let planted = tmp + "/skan-mock-\(port)"
        try makeFolder(planted, mode: 0o755)
        for name in ["skan-mock.log", "journal.jsonl"] {
            try "theirs\n".write(toFile: victims + "/" + name, atomically: true, encoding: .utf8)
            try FileManager.default.createSymbolicLink(
                atPath: planted + "/" + name, withDestinationPath: victims + "/" + name)
        }
        try "\(other.processIdentifier)\n".write(toFile: planted + "/skan-mock.pid", atomically: true, encoding: .utf8)
        if getuid() == 0 { #expect(chown(planted, 65534, 65534) == 0) }

        let result = try run(port: port, dir: nil, tmp: tmp)
        #expect(text(victims + "/skan-mock.log") == "theirs\n")
        #expect(text(victims + "/journal.jsonl") == "theirs\n")
        #expect(!signalled(marker), "the script signalled the process another user's pid file named")
        #expect(result.status == 0, "\(result.said)")
        let mode = try FileManager.default.attributesOfItem(atPath: own)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o700)
        #expect(pid(in: own) == servedPid(result.said))
    }

    /// A folder given with SKAN_MOCK_PRE_ACTION_DIR that is a link, another user's, writable by
    /// others or holding a link is refused in one line, and nothing in it is followed.
    @Test func aFolderThatIsNotPrivatelyTheUsersIsRefused() throws {
        let port = try freePort()
        let base = NSTemporaryDirectory() + "skan-pre-action-refused-\(UUID().uuidString)"
        let marker = base + "-signalled"
        let other = try otherProgram(marker: marker)
        defer {
            other.terminate()
            try? FileManager.default.removeItem(atPath: base)
            try? FileManager.default.removeItem(atPath: marker)
        }
        try makeFolder(base + "/victims")
        let victim = base + "/victims/file"
        try "theirs\n".write(toFile: victim, atomically: true, encoding: .utf8)
        /// A folder with a link for the log and a pid file naming the other program.
        func planted(_ path: String, mode: Int) throws {
            try makeFolder(path, mode: mode)
            try FileManager.default.createSymbolicLink(atPath: path + "/skan-mock.log", withDestinationPath: victim)
            try "\(other.processIdentifier)\n".write(toFile: path + "/skan-mock.pid", atomically: true, encoding: .utf8)
        }
        try makeFolder(base + "/real")
        try FileManager.default.createSymbolicLink(atPath: base + "/link", withDestinationPath: base + "/real")
        try planted(base + "/open", mode: 0o777)
        try planted(base + "/private", mode: 0o700)
        var cases = [("link", "symbolic link"), ("open", "other users can write"), ("private", "symbolic link")]
        if getuid() == 0 {
            try planted(base + "/theirs", mode: 0o755)
            #expect(chown(base + "/theirs", 65534, 65534) == 0)
            cases.append(("theirs", "another user"))
        }
        for (name, reason) in cases {
            let result = try run(port: port, dir: base + "/" + name)
            if let pid = servedPid(result.said) { kill(pid, SIGTERM) }
            #expect(result.status == 1, "\(name): \(result.said)")
            #expect(result.said.contains(reason), "\(name): \(result.said)")
            #expect(text(victim) == "theirs\n", "\(name)")
            #expect(!signalled(marker), "\(name)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: base + "/real").isEmpty)
    }

    /// A pid file left by a server that was killed, then naming another program (the number
    /// reused): that program is not signalled, and a new server serves (issue 43.3).
    @Test func aStalePidFileNamingAnotherProgramLeavesItAlone() throws {
        let port = try freePort()
        let dir = NSTemporaryDirectory() + "skan-pre-action-\(UUID().uuidString)"
        let marker = dir + "-signalled"
        let other = try otherProgram(marker: marker)
        defer {
            other.terminate()
            if let pid = pid(in: dir) { kill(pid, SIGTERM) }
            try? FileManager.default.removeItem(atPath: dir)
            try? FileManager.default.removeItem(atPath: marker)
        }
        let first = try run(port: port, dir: dir)
        #expect(first.status == 0, "\(first.said)")
        let firstPid = try #require(pid(in: dir))
        kill(firstPid, SIGKILL)
        #expect(gone(firstPid))
        try "\(other.processIdentifier)\n".write(toFile: dir + "/skan-mock.pid", atomically: false, encoding: .utf8)

        let second = try run(port: port, dir: dir)
        #expect(!signalled(marker), "the script signalled a program that is not its server")
        #expect(second.status == 0, "\(second.said)")
        #expect(try CurlClient().get("http://127.0.0.1:\(port)/__admin/health").status == 200)
    }

    /// Two pre-actions at once (two schemes, a double click) leave one server, and both succeed.
    @Test func twoAtOnceLeaveOneServer() throws {
        let port = try freePort()
        let dir = NSTemporaryDirectory() + "skan-pre-action-\(UUID().uuidString)"
        let results = Mutex<[(status: Int32, said: String)]>([])
        defer {
            for result in results.withLock({ $0 }) { if let pid = servedPid(result.said) { kill(pid, SIGTERM) } }
            try? FileManager.default.removeItem(atPath: dir)
        }
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            let result = (try? run(port: port, dir: dir)) ?? (-1, "not run")
            results.withLock { $0.append(result) }
        }
        let both = results.withLock { $0 }
        #expect(both.allSatisfy { $0.status == 0 }, "\(both.map(\.said))")
        let serving = try #require(pid(in: dir))
        #expect(System.processExists(serving))
        for other in both.compactMap({ servedPid($0.said) }) where other != serving {
            #expect(gone(other, within: 5), "two servers were left running")
        }
        #expect(try CurlClient().get("http://127.0.0.1:\(port)/__admin/health").status == 200)
    }

    /// An old server that does not stop within 10 s (here: stopped with SIGSTOP) is killed, and a
    /// new one serves: the tests are not left without a server.
    @Test func anOldServerThatDoesNotStopIsReplaced() throws {
        let port = try freePort()
        let dir = NSTemporaryDirectory() + "skan-pre-action-\(UUID().uuidString)"
        var firstPid: Int32?
        defer {
            if let firstPid { kill(firstPid, SIGKILL) }
            if let pid = pid(in: dir) { kill(pid, SIGTERM) }
            try? FileManager.default.removeItem(atPath: dir)
        }
        let first = try run(port: port, dir: dir)
        #expect(first.status == 0, "\(first.said)")
        firstPid = pid(in: dir)
        let stuck = try #require(firstPid)
        kill(stuck, SIGSTOP)

        let second = try run(port: port, dir: dir)
        #expect(second.status == 0, "\(second.said)")
        #expect(gone(stuck, within: 5))
        #expect(pid(in: dir) != stuck)
        #expect(try CurlClient().get("http://127.0.0.1:\(port)/__admin/health").status == 200)
    }

    /// A lock folder with no holder file (a run stopped between its `mkdir` and writing the holder)
    /// is taken over after a few seconds: every later run used to wait 60 s and fail (issue 47.7).
    @Test func aLockFolderWithoutAHolderIsTakenOver() throws {
        let port = try freePort()
        let dir = NSTemporaryDirectory() + "skan-pre-action-\(UUID().uuidString)"
        defer {
            if let pid = pid(in: dir) { kill(pid, SIGTERM) }
            try? FileManager.default.removeItem(atPath: dir)
        }
        try makeFolder(dir)
        try makeFolder(dir + "/pre-action.lock")
        let started = Date()
        let result = try run(port: port, dir: dir)
        let took = Date().timeIntervalSince(started)
        #expect(result.status == 0, "\(result.said)")
        #expect(took < 20, "the run waited \(Int(took)) s on a lock folder naming no holder")
        #expect(result.said.contains("named no holder for 3 s"), "\(result.said)")
        #expect(try CurlClient().get("http://127.0.0.1:\(port)/__admin/health").status == 200)
        #expect(!FileManager.default.fileExists(atPath: dir + "/pre-action.lock"), "the run left its lock")
    }
}
