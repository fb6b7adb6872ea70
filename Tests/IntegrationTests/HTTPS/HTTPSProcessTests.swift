#if SKAN_MOCK_TLS
    import Foundation
    import SystemPOSIX
    import Testing

    /// `skan-mock --https-port` as a user starts it: the start-up lines, broken certificate files named
    /// with exit status 2 before any listening line, a usage error for half a pair, and no state
    /// folder without HTTPS.
    @Suite("skan-mock with HTTPS, as a process")
    struct HTTPSProcessTests {
        struct Run {
            let status: Int32
            let output: String
            let error: String
        }

        /// Runs skan-mock; with `until`, stops it (SIGTERM) once its output contains that text. Every
        /// read has a deadline and a process that does not stop is killed, so a test never hangs.
        private func run(_ arguments: [String], environment: [String: String] = [:], until marker: String? = nil) throws
            -> Run
        {
            let binary = try #require(
                ProcessLifecycleTests.executable, "build skan-mock first (swift build --build-tests)")
            let process = Process()
            process.executableURL = binary
            process.arguments = arguments
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            let output = Pipe()
            let error = Pipe()
            process.standardOutput = output
            process.standardError = error
            try process.run()
            var out = ""
            let deadline = Date().addingTimeInterval(20)
            if let marker {
                out = Self.read(output, until: { $0.contains(marker) }, deadline: deadline)
                process.terminate()
            }
            _ = process.exits(within: deadline.timeIntervalSinceNow)
            out += Self.read(output, until: { _ in false }, deadline: Date().addingTimeInterval(2))
            let err = Self.read(error, until: { _ in false }, deadline: Date().addingTimeInterval(2))
            return Run(status: process.terminationStatus, output: out, error: err)
        }

        /// Reads `pipe` until `done` holds for what was read, the writer closes it, or `deadline` passes.
        private static func read(_ pipe: Pipe, until done: (String) -> Bool, deadline: Date) -> String {
            let fd = pipe.fileHandleForReading.fileDescriptor
            var text = ""
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !done(text) && Date() < deadline {
                guard System.waitReadable(fd, milliseconds: 100) else { continue }
                guard case .done(let count)? = try? System.read(fd, &buffer, buffer.count), count > 0 else { break }
                text += String(decoding: buffer[0..<count], as: UTF8.self)
            }
            return text
        }

        private func temporary(_ name: String) -> String {
            NSTemporaryDirectory() + "skan-https-process-\(UUID().uuidString)-\(name)"
        }

        @Test func startsWithBothListeningLinesAndMakesTheStateFolder() throws {
            let state = temporary("state")
            defer { try? FileManager.default.removeItem(atPath: state) }
            let started = try run(["--port", "0", "--https-port", "0", "--state-dir", state], until: "https://")
            let lines = started.output.split(separator: "\n")
            #expect(lines.first?.hasPrefix("skan-mock listening on http://127.0.0.1:") == true)
            #expect(lines.dropFirst().first?.hasPrefix("skan-mock listening on https://127.0.0.1:") == true)
            #expect(FileManager.default.fileExists(atPath: state + "/ca.pem"))
        }

        @Test func withoutHTTPSNoStateFolderIsMade() throws {
            let state = temporary("never")
            let started = try run(
                ["--port", "0"], environment: ["SKAN_MOCK_STATE_DIR": state], until: "listening on http://")
            #expect(started.output.hasPrefix("skan-mock listening on http://"))
            #expect(!FileManager.default.fileExists(atPath: state))
        }

        @Test func brokenCertificateFilesStopTheStartNamingTheFile() throws {
            let missing = temporary("missing.pem")
            let notPEM = temporary("not.pem")
            try "hello".write(toFile: notPEM, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(atPath: notPEM) }
            for (cert, key) in [(missing, notPEM), (notPEM, notPEM)] {
                let result = try run(["--port", "0", "--https-port", "0", "--tls-cert", cert, "--tls-key", key])
                #expect(result.status == 2)
                #expect(result.error.contains(cert), "\(result.error)")
                #expect(!result.output.contains("listening"))
                #expect(result.error.split(separator: "\n").count == 1)
            }
            let half = try run(["--port", "0", "--https-port", "0", "--tls-cert", notPEM])
            #expect(half.status == 64)
            #expect(half.error.contains("--tls-cert and --tls-key go together"))
        }
    }
#endif
