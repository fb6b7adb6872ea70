#if SKAN_MOCK_TLS
    import Foundation
    import Testing

    /// `skan-mock ca`, run as a user would: the CA's path and fingerprint, made once and then kept.
    @Suite("skan-mock ca")
    struct CACommandTests {
        struct Run {
            let status: Int32
            let output: String
            let error: String
        }

        private func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Run
        {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            let output = Pipe()
            let error = Pipe()
            process.standardOutput = output
            process.standardError = error
            try process.run()
            let out = output.fileHandleForReading.readDataToEndOfFile()
            let err = error.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return Run(
                status: process.terminationStatus, output: String(decoding: out, as: UTF8.self),
                error: String(decoding: err, as: UTF8.self))
        }

        private func skanMock(_ arguments: [String], environment: [String: String] = [:]) throws -> Run {
            let binary = try #require(
                ProcessLifecycleTests.executable, "build skan-mock first (swift build --build-tests)")
            return try run(binary.path, arguments, environment: environment)
        }

        /// The fingerprint is compared with OpenSSL 3's output; a Mac's own `openssl` is LibreSSL.
        static let hasOpenSSL3: Bool = {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["openssl", "version"]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = Pipe()
            guard (try? process.run()) != nil else { return false }
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return text.hasPrefix("OpenSSL 3")
        }()

        @Test(
            .enabled(
                if: hasOpenSSL3,
                "needs OpenSSL 3's openssl command first on PATH, not LibreSSL (a Mac: brew install openssl@3)"))
        func printsThePathAndFingerprintAndKeepsTheCA() throws {
            let folder = NSTemporaryDirectory() + "skan-ca-command-\(UUID().uuidString)"
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let first = try skanMock(["ca", "--state-dir", folder])
            #expect(first.status == 0, "\(first.error)")
            let lines = first.output.split(separator: "\n").map(String.init)
            #expect(lines.count == 2)
            #expect(lines.first == "CA certificate: \(folder)/ca.pem")
            let openssl = try run(
                "/usr/bin/env", ["openssl", "x509", "-noout", "-fingerprint", "-sha256", "-in", folder + "/ca.pem"])
            let fingerprint = openssl.output.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(
                of: "sha256 Fingerprint=", with: "")
            #expect(lines.last == "SHA-256 fingerprint: \(fingerprint)")
            let key =
                try FileManager.default.attributesOfItem(atPath: folder + "/ca-key.pem")[.posixPermissions] as? NSNumber
            #expect(key?.intValue == 0o600)

            let second = try skanMock(["ca"], environment: ["SKAN_MOCK_STATE_DIR": folder])
            #expect(second.output == first.output)
            #expect(second.error.isEmpty)

            let renewed = try skanMock(["ca", "--state-dir", folder, "--renew"])
            #expect(renewed.status == 0)
            #expect(renewed.output.hasPrefix("CA certificate: \(folder)/ca.pem\n"))
            #expect(renewed.output != first.output)
        }

        /// Issue 43.12: a key path that is a symbolic link (planted in a state folder others could
        /// write) is refused in one line; the file it names keeps its mode and its bytes.
        @Test func aKeyPathThatIsALinkIsRefusedAndTheFileItNamesKeepsItsMode() throws {
            let folder = NSTemporaryDirectory() + "skan-ca-link-\(UUID().uuidString)"
            let victim = NSTemporaryDirectory() + "skan-ca-victim-\(UUID().uuidString).pem"
            defer {
                try? FileManager.default.removeItem(atPath: folder)
                try? FileManager.default.removeItem(atPath: victim)
            }
            #expect(try skanMock(["ca", "--state-dir", folder]).status == 0)
            // The victim is a real key, so that loading through the link would succeed.
            try FileManager.default.copyItem(atPath: folder + "/ca-key.pem", toPath: victim)
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: victim)
            let before = try Data(contentsOf: URL(fileURLWithPath: victim))
            try FileManager.default.removeItem(atPath: folder + "/ca-key.pem")
            try FileManager.default.createSymbolicLink(atPath: folder + "/ca-key.pem", withDestinationPath: victim)

            let result = try skanMock(["ca", "--state-dir", folder])
            let mode = try FileManager.default.attributesOfItem(atPath: victim)[.posixPermissions] as? NSNumber
            #expect(mode?.intValue == 0o644, "skan-mock ca changed the mode of the file its key path links to")
            #expect(try Data(contentsOf: URL(fileURLWithPath: victim)) == before)
            #expect(result.status == 2)
            #expect(result.output.isEmpty)
            #expect(
                result.error.hasPrefix("skan-mock ca: \(folder)/ca-key.pem: ")
                    && result.error.contains("symbolic link"), "\(result.error)")

            // --renew replaces the link with a new key, and still leaves the file it named alone.
            let renewed = try skanMock(["ca", "--state-dir", folder, "--renew"])
            #expect(renewed.status == 0, "\(renewed.error)")
            let key = try FileManager.default.attributesOfItem(atPath: folder + "/ca-key.pem")
            #expect(key[.type] as? FileAttributeType == .typeRegular)
            #expect((key[.posixPermissions] as? NSNumber)?.intValue == 0o600)
            #expect(try Data(contentsOf: URL(fileURLWithPath: victim)) == before)
            let after = try FileManager.default.attributesOfItem(atPath: victim)[.posixPermissions] as? NSNumber
            #expect(after?.intValue == 0o644)
        }

        @Test func brokenCAFileStopsWithItsName() throws {
            let folder = NSTemporaryDirectory() + "skan-ca-broken-\(UUID().uuidString)"
            defer { try? FileManager.default.removeItem(atPath: folder) }
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try "not a certificate\n".write(toFile: folder + "/ca.pem", atomically: true, encoding: .utf8)
            let result = try skanMock(["ca", "--state-dir", folder])
            #expect(result.status == 2)
            #expect(result.output.isEmpty)
            #expect(result.error.hasPrefix("skan-mock ca: \(folder)/ca.pem: "), "\(result.error)")
            #expect(result.error.split(separator: "\n").count == 1)
        }
    }
#endif
