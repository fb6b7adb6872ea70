import Foundation
import Testing

/// `skan-mock health` (the Docker HEALTHCHECK) and `simulate` give up (issue 43.6): their timeout
/// was per read, so an answer dripping a byte at a time held them forever, and an endless one was
/// buffered until memory ran out. The timeout now bounds the whole exchange and the answer is read
/// up to 1 MiB. The servers here drip for 3 s or pour 8 MiB, then stop: before, each command
/// waited them out and exited 0.
@Suite("Command-line clients give up")
struct ClientDeadlineTests {
    /// Runs `skan-mock arguments` to its end (at most 15 s); its exit status and standard error.
    private func run(_ arguments: [String]) throws -> (status: Int32, error: String) {
        let binary = try #require(ProcessLifecycleTests.executable, "build skan-mock first (swift build --build-tests)")
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        let error = Pipe()
        process.standardError = error
        try process.run()
        let text = error.fileHandleForReading.readDataToEndOfFile()
        #expect(process.exits(within: 15), "skan-mock \(arguments.first ?? "") did not give up")
        return (process.terminationStatus, String(decoding: text, as: UTF8.self))
    }

    @Test func healthGivesUpOnADrippingAnswer() throws {
        let server = try MisbehavingServer(.drip(interval: 0.02, seconds: 3))
        let result = try run(["health", "--port", String(server.port), "--timeout", "0.5"])
        #expect(result.status == 1)
        #expect(result.error.contains("no complete answer within 0.5 s"), "\(result.error)")
    }

    @Test func healthStopsReadingAnEndlessAnswer() throws {
        let server = try MisbehavingServer(.pour(bytes: 8 << 20))
        let result = try run(["health", "--port", String(server.port), "--timeout", "10"])
        #expect(result.status == 1)
        #expect(result.error.contains("the answer is larger than 1048576 bytes"), "\(result.error)")
    }

    @Test func simulateGivesUpOnADrippingAnswer() throws {
        let server = try MisbehavingServer(.drip(interval: 0.02, seconds: 3))
        let result = try run(["simulate", "--url", "http://127.0.0.1:\(server.port)", "--timeout", "0.5"])
        #expect(result.status == 1)
        #expect(result.error.contains("no complete answer within 0.5 s"), "\(result.error)")
    }
}
