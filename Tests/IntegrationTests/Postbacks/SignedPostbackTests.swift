#if SKAN_MOCK_TLS
    import Foundation
    import SKANDomain
    import SKANMock
    import SKANTLS
    import SystemPOSIX
    import Testing

    /// With --https, AdAttributionKit postbacks' JWS is signed with the local CA's key, and the
    /// signature checks out against the CA the server serves (issue 29.9).
    @Suite("Signed AdAttributionKit postbacks over real sockets")
    struct SignedPostbackTests {
        @Test func theJWSVerifiesWithTheServedCA() throws {
            let folder = NSTemporaryDirectory() + "skan-jws-\(UUID().uuidString)"
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let mock = try TestSKANMock(configure: { options in
                options.https = HTTPSOptions(port: 0, stateDirectory: folder)
            })
            #expect(
                try mock.get(
                    "/api/v2/conversion_value",
                    [
                        ("a", "K"), ("i", "com.x"), ("p", "iOS"), ("idfv", "JWS"), ("n", "__SESSION__"),
                        ("skan_first_call_to_skadnetwork_timestamp", String(TestSKANMock.start - 3 * 86_400))
                    ]
                ).status == 200)
            let answer = try mock.admin("/__admin/devices/JWS/postbacks?tier=3&framework=aak")
            let p0 = try #require(answer["skan4"]?[0]?["postbacks"]?[0])
            let jws = try #require(p0["apple"]?["jws-string"]?.stringValue)
            let parts = jws.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            #expect(parts.count == 3 && p0["jws"]?["reason"] == .null)
            let pem = try mock.client.get(mock.url("/__admin/ca.pem"))
            let ca = try #require(try Certificate.chain(pem: pem.body).first)
            #expect(p0["jws"]?["header"]?["kid"]?.stringValue?.hasPrefix("skan-mock-ca-") == true)
            let signature = try #require(Self.base64URL(parts[2]))
            #expect(ES256.verify(signature, of: Array((parts[0] + "." + parts[1]).utf8), by: ca))
        }

        /// Issue 40.6: SKAdNetwork postbacks (4.0 and 3.0) carry an `attribution-signature` that a
        /// parser following Apple's steps verifies: the fields in the version's order joined by
        /// U+2063, ECDSA P-256 SHA-256, base64 of DER, here with the served CA's key.
        @Test func skanPostbacksCarryAnAttributionSignature() throws {
            let folder = NSTemporaryDirectory() + "skan-sig-\(UUID().uuidString)"
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let mock = try TestSKANMock(configure: { options in
                options.https = HTTPSOptions(port: 0, stateDirectory: folder)
            })
            let first = String(TestSKANMock.start - 3 * 86_400)
            let base = [("a", "K"), ("i", "com.x"), ("p", "iOS"), ("idfv", "SIG"), ("n", "__SESSION__")]
            #expect(
                try mock.get("/api/v2/conversion_value", base + [("skan_first_call_to_skadnetwork_timestamp", first)])
                    .status == 200)
            #expect(
                try mock.get(
                    "/api/v1/conversion_value",
                    base + [("conversion_value", "0"), ("first_call_to_skadnetwork_timestamp", first)]
                ).status == 200)
            mock.clock.advance(seconds: 2 * 86_400)
            let pem = try mock.client.get(mock.url("/__admin/ca.pem"))
            let ca = try #require(try Certificate.chain(pem: pem.body).first)
            let order4 = [
                "version", "ad-network-id", "source-identifier", "app-id", "transaction-id", "redownload",
                "source-app-id", "fidelity-type", "did-win", "postback-sequence-index"
            ]
            let order3 = [
                "version", "ad-network-id", "campaign-id", "app-id", "transaction-id", "redownload", "source-app-id",
                "fidelity-type", "did-win"
            ]
            for (query, didWin) in [("tier=3", true), ("tier=3&did_win=false", false), ("tier=1", true)] {
                let answer = try mock.admin("/__admin/devices/SIG/postbacks?" + query)
                let skan4 = try #require(answer["skan4"]?[0]?["postbacks"]?[0]?["apple"])
                let skan3 = try #require(answer["skan3"]?["apple"])
                for (apple, order) in [(skan4, order4), (skan3, order3)] {
                    let signature = try #require(apple["attribution-signature"]?.stringValue, "\(query): \(apple)")
                    let der = try #require(Data(base64Encoded: signature).map { [UInt8]($0) })
                    let raw = try #require(Self.raw(der))
                    let text = order.compactMap { name -> String? in
                        guard let value = apple[name] else { return nil }
                        return value.stringValue ?? value.intValue.map(String.init)
                            ?? value.boolValue.map { $0 ? "true" : "false" }
                    }.joined(separator: "\u{2063}")
                    #expect(apple["did-win"]?.boolValue == didWin)
                    #expect(ES256.verify(raw, of: Array(text.utf8), by: ca), "\(query): \(text)")
                    #expect(!ES256.verify(raw, of: Array((text + "x").utf8), by: ca))
                }
            }
        }

        /// Issue 40.6, 40.7, 50.1: docs/postbacks.md's two signature checks (`jq` and `openssl`
        /// only) say `Verified OK` as shown: every line of the block runs, the server's start, the
        /// wait for it and its stop included, with the built `skan-mock` first on PATH. Only the
        /// ports are changed (8080 and 8443 may be taken on a shared machine).
        @Test func theDocsSignatureChecksVerify() throws {
            let page = try DocumentationPages.text("docs/postbacks.md")
            let section = try #require(page.components(separatedBy: "## The signatures").dropFirst().first)
            let blocks = section.components(separatedBy: "```bash\n").dropFirst().compactMap {
                $0.components(separatedBy: "\n```").first
            }
            #expect(blocks.count == 2)
            let binary = try #require(ProcessLifecycleTests.executable)
            for block in blocks {
                #expect(block.hasPrefix("skan-mock --https-port 8443 &"), "\(block)")
                #expect(block.split(separator: "\n").last?.hasPrefix("kill $!") == true, "\(block)")
                let folder = NSTemporaryDirectory() + "skan-doc-sig-\(UUID().uuidString)"
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                defer { try? FileManager.default.removeItem(atPath: folder) }
                let (http, https) = (try Self.freePort(), try Self.freePort())
                let script = block.replacingOccurrences(of: "8080", with: String(http))
                    .replacingOccurrences(of: "8443", with: String(https))
                let environment = [
                    "PATH": binary.deletingLastPathComponent().path + ":"
                        + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
                    "SKAN_MOCK_PORT": String(http), "SKAN_MOCK_STATE_DIR": folder + "/state"
                ]
                let (status, output) = try Self.bash(script, in: folder, environment: environment)
                #expect(status == 0 && output.contains("Verified OK"), "\(block)\n\(output)")
            }
        }

        /// A port nobody listens on now.
        static func freePort() throws -> Int {
            let fd = try System.listen(host: "127.0.0.1", port: 0, backlog: 1)
            defer { System.close(fd) }
            return System.localPort(fd)
        }

        /// Runs `script` with bash in `folder`, for at most a minute: its status and output.
        /// A server the script leaves behind when a line fails is killed on its way out: it would
        /// hold the output pipe open. (SIGKILL: a SIGTERM that comes while the server is still
        /// starting can be lost.)
        static func bash(_ script: String, in folder: String, environment: [String: String] = [:]) throws -> (
            Int32, String
        ) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = [
                "-euo", "pipefail", "-c", "trap 'kill -KILL $(jobs -p) 2>/dev/null || true' EXIT\n" + script
            ]
            if !environment.isEmpty {
                process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            }
            process.currentDirectoryURL = URL(fileURLWithPath: folder)
            let output = Pipe()
            process.standardOutput = output
            process.standardError = output
            let ended = DispatchSemaphore(value: 0)
            process.terminationHandler = { _ in ended.signal() }
            try process.run()
            let text = Mutex(Data())
            let reading = DispatchGroup()
            DispatchQueue.global().async(group: reading) {
                let data = output.fileHandleForReading.readDataToEndOfFile()
                text.withLock { $0 = data }
            }
            if ended.wait(timeout: .now() + 60) == .timedOut {
                process.terminate()
                ended.wait()
            }
            reading.wait()
            return (process.terminationStatus, String(decoding: text.withLock { $0 }, as: UTF8.self))
        }

        /// r and s (32 bytes each) from a DER `SEQUENCE { INTEGER, INTEGER }`.
        static func raw(_ der: [UInt8]) -> [UInt8]? {
            guard der.count > 8, der[0] == 0x30 else { return nil }
            var index = 2
            var out: [UInt8] = []
            for _ in 0..<2 {
                guard index + 2 <= der.count, der[index] == 0x02 else { return nil }
                let length = Int(der[index + 1])
                guard index + 2 + length <= der.count else { return nil }
                let value = Array(der[(index + 2)..<(index + 2 + length)].drop { $0 == 0 })
                guard value.count <= 32 else { return nil }
                out += [UInt8](repeating: 0, count: 32 - value.count) + value
                index += 2 + length
            }
            return out
        }

        static func base64URL(_ text: String) -> [UInt8]? {
            var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            while standard.utf8.count % 4 != 0 { standard += "=" }
            return Data(base64Encoded: standard).map { [UInt8]($0) }
        }
    }
#endif
