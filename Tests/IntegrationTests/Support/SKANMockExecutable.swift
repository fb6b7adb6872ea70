import Dispatch
import Foundation
import SystemPOSIX
import Testing

/// The real `skan-mock` executable as a user runs it: a command that ends (`report`, `compare`,
/// `validate`), or the server on a free port.
enum SKANMockExecutable {
    struct Run {
        var status: Int32
        var output: String
        var error: String
    }

    /// Runs `skan-mock ARGUMENTS` to its end; its exit status, standard output and standard error.
    /// `environment` is added to the test's own; `directory`, when given, is its working directory.
    static func run(_ arguments: [String], environment: [String: String] = [:], directory: String? = nil) throws -> Run
    {
        let binary = try #require(ProcessLifecycleTests.executable, "build skan-mock first (swift build --build-tests)")
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        // Read both pipes at once: a command that fills one while the other is read would never end.
        let errorText = Mutex(Data())
        let readingErrors = DispatchGroup()
        DispatchQueue.global().async(group: readingErrors) {
            let data = error.fileHandleForReading.readDataToEndOfFile()
            errorText.withLock { $0 = data }
        }
        let out = output.fileHandleForReading.readDataToEndOfFile()
        readingErrors.wait()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, output: String(decoding: out, as: UTF8.self),
            error: String(decoding: errorText.withLock { $0 }, as: UTF8.self))
    }

    /// Starts the server with `--port 0` and `arguments` (and `environment` added to the test's);
    /// the process and the port its start-up line names. The caller stops it (`terminateAndWait`).
    /// `errors` takes its standard error (none: discarded).
    static func serve(_ arguments: [String], environment: [String: String] = [:], errors: Pipe? = nil) throws -> (
        process: Process, port: Int
    ) {
        let binary = try #require(ProcessLifecycleTests.executable, "build skan-mock first (swift build --build-tests)")
        let process = Process()
        process.executableURL = binary
        process.arguments = ["--port", "0"] + arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = errors ?? FileHandle.nullDevice
        try process.run()
        guard let port = ListeningLine.port(of: output) else {
            // It refused to start: it ends by itself, or is killed after a bounded wait.
            _ = process.exits(within: 10)
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "skan-mock did not start"])
        }
        return (process, port)
    }
}
