import Foundation
import SKANDomain
import SKANFiles
import SystemPOSIX
import Testing

@testable import SKANMock

/// The server's parts start in their declared order and stop in reverse; a part that fails to
/// start stops the ones before it; stopping twice stops once.
@Suite struct ServerLifecycleTests {
    /// Records what happened to the parts, in order.
    final class Log: Sendable {
        private let lines = Mutex<[String]>([])
        func add(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }

    private func part(_ name: String, _ log: Log, failing: Bool = false) -> ServerPart {
        ServerPart(
            name,
            start: { () throws(SKANMockServer.StartupError) in
                if failing { throw SKANMockServer.StartupError(.listeners, "\(name) cannot start") }
                log.add("start \(name)")
            },
            stop: { grace in log.add("stop \(name) \(grace)") })
    }

    @Test func partsStopInTheReverseOfTheirStart() throws {
        let log = Log()
        let lifecycle = ServerLifecycle()
        try lifecycle.start(["file", "listener", "watcher"].map { part($0, log) })
        #expect(lifecycle.running == ["file", "listener", "watcher"])
        lifecycle.stop(gracePeriod: 5)
        lifecycle.stop(gracePeriod: 5)
        #expect(
            log.all == [
                "start file", "start listener", "start watcher", "stop watcher 5.0", "stop listener 5.0",
                "stop file 5.0"
            ])
        #expect(lifecycle.running.isEmpty)
    }

    @Test func aPartThatFailsToStartStopsTheOnesBeforeIt() {
        let log = Log()
        let lifecycle = ServerLifecycle()
        do {
            try lifecycle.start([part("file", log), part("listener", log), part("https", log, failing: true)])
            Issue.record("the start went through a part that failed")
        } catch {
            // The lifecycle's own error: the part's name and the part's error, whatever its type.
            #expect(error.service == "https" && error.error is SKANMockServer.StartupError)
        }
        #expect(log.all == ["start file", "start listener", "stop listener 0.0", "stop file 0.0"])
        #expect(lifecycle.running.isEmpty)
    }

    /// Each running part joins the lifecycle the moment it exists: a `--resume` that fails after
    /// the journal's file opened and the upstream started stops them again, and the file stays as
    /// it was (issue 48: the upstream was stopped by hand, the file neither flushed nor stopped).
    @Test func aResumeThatFailsAfterTheLogOpenedLeavesNoPartRunning() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (log, options) = try Self.resumingTooLargeALog(in: folder)
        let upstream = UpstreamTwin()
        let clock = ManualClock(seconds: InProcessServer.now)
        let made = Result { () throws(SKANMockServer.StartupError) -> SKANMockServer in
            try SKANMockServer(options: options, clock: clock, localAddresses: [], edges: .init(upstream: upstream))
        }
        switch made {
        case .success: Issue.record("a journal past the --resume limit was resumed")
        case .failure(let error): #expect(error.stage == .journal, "\(error)")
        }
        #expect(upstream.isStopped)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: log)[.size] as? UInt64)
        #expect(size == UInt64(FileBytes.journalLimit) + 1)
        #expect(Self.descriptors(of: log).isEmpty, "the failed start left the --log file open")
    }

    /// The stages as the server runs them, holding on to what the second one made: a `--resume`
    /// that fails after a line went to the journal's file leaves the line on disk, the file
    /// closed (not left to its last reference), the upstream stopped and no part in the lifecycle.
    /// Before issue 48 the file was neither flushed nor closed by a failed start.
    @Test func aFailedResumeFlushesAndClosesTheLogAndStopsTheUpstream() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (log, given) = try Self.resumingTooLargeALog(in: folder)
        let options = try StartupConfiguration.check(given)
        let upstream = UpstreamTwin()
        let clock = OffsetClock(base: ManualClock(seconds: InProcessServer.now), offsetSeconds: 0)
        let lifecycle = ServerLifecycle()
        let running = try RunningParts(options, clock: clock, edges: .init(upstream: upstream), into: lifecycle)
        #expect(lifecycle.running == ["journal file", "upstream", "delayed answers", "postback sender"])
        #expect(Self.descriptors(of: log).count == 1)
        let sink = try #require(running.journalFile)
        let line = "{\"written\":\"before the failure\"}\n"
        sink.write(line: Array(line.utf8))
        let service = ConversionService(model: .builtIn, clock: clock)
        let tenants = TenantRegistry.factory(
            options, defaultService: service, clock: clock,
            components: ServerComponents(
                options, files: try StartupFiles(options), running: running, ports: ListeningPorts(),
                modelStatus: ModelStatus(), edges: .init(upstream: upstream)),
            routes: SingularRoutes(aliases: []), replay: nil)
        let resumed = Result { () throws(SKANMockServer.StartupError) -> [String] in
            try running.unwinding { () throws(SKANMockServer.StartupError) in
                try SKANMockServer.resume(
                    options, into: service, tenants: tenants, journal: running.journal, clock: clock)
            }
        }
        switch resumed {
        case .success: Issue.record("a journal past the --resume limit was resumed")
        case .failure(let error): #expect(error.stage == .journal, "\(error)")
        }
        #expect(lifecycle.running.isEmpty)
        #expect(upstream.isStopped)
        #expect(sink.isClosed)
        #expect(Self.descriptors(of: log).isEmpty, "the failed start left the --log file open")
        // On disk at once, without a flush from here: the unwinding flushed it.
        let size = try #require(try FileManager.default.attributesOfItem(atPath: log)[.size] as? UInt64)
        #expect(size == UInt64(FileBytes.journalLimit) + 1 + UInt64(line.utf8.count))
        let tail = try #require(FileHandle(forReadingAtPath: log))
        defer { try? tail.close() }
        try tail.seek(toOffset: UInt64(FileBytes.journalLimit) + 1)
        #expect(String(decoding: try tail.readToEnd() ?? Data(), as: UTF8.self) == line)
    }

    /// A folder of the test's own.
    private static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "skan-mock-unwind-" + String(UInt64.random(in: 1...UInt64.max), radix: 36))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Options that resume a `--log` past the `--resume` limit (sparse: nothing is written to make
    /// it), with an upstream, so that the start fails after the file and the upstream exist.
    private static func resumingTooLargeALog(in folder: URL) throws -> (log: String, options: ServerOptions) {
        let log = folder.appendingPathComponent("journal.jsonl").path
        #expect(FileManager.default.createFile(atPath: log, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: log))
        try handle.truncate(atOffset: UInt64(FileBytes.journalLimit) + 1)
        try handle.close()
        var options = ServerOptions()
        options.port = 0
        options.watchModel = false
        options.logPath = log
        options.resume = true
        options.upstream = try UpstreamOptions(baseURL: "https://upstream.test", mode: .shadow, timeoutSeconds: 5)
        return (log, options)
    }
    /// This process's descriptors open on `path` (none where `/proc` is missing).
    static func descriptors(of path: String) -> [String] {
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return open.filter { fd in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + fd)) == target
        }
    }

    /// The real server's parts, in the order they start (the first four made by the start-up
    /// stages): what stops last is the journal's file; the postback sender stops before it, so
    /// the posts it never made are journaled and flushed.
    @Test func theServersPartsAreDeclaredInOrder() throws {
        let server = try SKANMockServer.start { $0.port = 0 }
        defer { server.stop(gracePeriod: 0) }
        #expect(
            server.runningParts == [
                "journal file", "upstream", "delayed answers", "postback sender", "http listener", "ports",
                "journal waiters"
            ])
    }
}
