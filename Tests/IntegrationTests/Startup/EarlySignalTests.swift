import Foundation
import SystemPOSIX
import Testing

/// A SIGTERM sent in the first milliseconds of a start, through the real executable (issue 47.12):
/// one start in 15 used to keep serving until a second SIGTERM (the signal came after it was set
/// to be ignored and before every thread blocked it for Dispatch), and scripts that start and
/// stop a server at once waited forever. Every start, stopped at any moment, ends. (The test
/// runner's children inherit a blocked SIGTERM, so the old code, which set it to be ignored while
/// pending, lost every one here; from a shell it lost those that fell in its window.)
@Suite("A SIGTERM at any moment of a start ends the server", .serialized)
struct EarlySignalTests {
    private func start(_ arguments: [String]) throws -> Process {
        let binary = try #require(ProcessLifecycleTests.executable, "build skan-mock first (swift build --build-tests)")
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Twenty starts, each sent SIGTERM at another moment of its first 20 ms (at once, then a
    /// millisecond later each time): each ends within 10 s, by its stop (0) or, when the signal
    /// came before `main`, by the signal itself.
    @Test func aSIGTERMInTheFirstMillisecondsEndsEveryStart() throws {
        var lost: [Int] = []
        for round in 0..<20 {
            let process = try start(["--port", "0"])
            if round > 0 { System.sleep(microseconds: UInt32(round) * 1_000) }
            kill(process.processIdentifier, SIGTERM)
            guard process.exits(within: 10) else {
                lost.append(round)
                continue
            }
            let stopped =
                process.terminationReason == .exit
                ? process.terminationStatus == 0 : process.terminationStatus == SIGTERM
            #expect(stopped, "round \(round): \(process.terminationReason) \(process.terminationStatus)")
        }
        #expect(lost.isEmpty, "SIGTERMs sent after \(lost) ms were lost: those servers kept running")
    }

    /// The commands that end by themselves keep the usual signals: `health` waiting on a server
    /// that never answers ends at a SIGTERM, at once, as any command does.
    @Test func theOtherCommandsEndAtASIGTERMAsUsual() throws {
        let silent = try System.listen(host: "127.0.0.1", port: 0, backlog: 1)
        defer { System.close(silent) }
        let process = try start(["health", "--port", String(System.localPort(silent)), "--timeout", "60"])
        System.sleep(microseconds: 300_000)
        kill(process.processIdentifier, SIGTERM)
        #expect(process.exits(within: 5), "skan-mock health did not end at a SIGTERM")
        #expect(process.terminationReason == .uncaughtSignal)
    }
}
