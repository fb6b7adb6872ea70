#if SKAN_MOCK_UPSTREAM
    import Foundation
    import SKANDomain
    import SKANMock
    import Testing

    /// Record and replay end to end, with no internet: "production" is a second skan-mock with the
    /// revenue model, a proxy in front of it writes the journal, `skan-mock record` (the executable)
    /// turns that into a replay file, and a server with `--replay` and the default model answers the
    /// recorded sequence as production did and anything else as the model does.
    @Suite("Record and replay over sockets")
    struct RecordReplayTests {
        static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()

        /// A SKAN 4 session of Singular's snippet for `device`, in p0.
        private func session(_ device: String, value: Int = 0) -> [(String, String)] {
            [
                ("a", "KEY"), ("i", "com.example.app"), ("p", "iOS"), ("idfv", device), ("n", "__SESSION__"),
                ("skan_current_conversion_value", String(value)),
                ("skan_first_call_to_skadnetwork_timestamp", String(TestSKANMock.start - 60))
            ]
        }

        /// The recorded sequence: two identical sessions, then a SKAN 3 call.
        private func sequence(_ mock: TestSKANMock, device: String) throws -> [String] {
            [
                try mock.get("/api/v2/conversion_value", session(device)).text,
                try mock.get("/api/v2/conversion_value", session(device)).text,
                try mock.get(
                    "/api/v1/conversion_value",
                    [("a", "KEY"), ("idfv", device), ("n", "__SESSION__"), ("conversion_value", "0")]
                ).text
            ]
        }

        @Test func aRecordedProxyRunIsAnsweredAsProductionDidAndTheRestByTheModel() throws {
            let production = try TestSKANMock(configure: {
                $0.modelPath = Self.root.appendingPathComponent("config/revenue.json").path
            })
            let upstream = try UpstreamOptions(baseURL: "http://127.0.0.1:\(production.server.port)", mode: .proxy)
            let proxy = try TestSKANMock(configure: { $0.upstream = upstream })
            let recorded = try sequence(proxy, device: "FROZEN")
            #expect(
                try proxy.admin("/__admin/requests/wait?device=FROZEN&count=3&timeout_ms=20000")["timed_out"] == false)
            proxy.server.flushJournalLog()

            let replayPath = NSTemporaryDirectory() + "skan-mock-replay-\(UUID().uuidString).json"
            defer { try? FileManager.default.removeItem(atPath: replayPath) }
            let record = try SKANMockExecutable.run(["record", proxy.logPath, "--out", replayPath])
            #expect(record.status == 0, "\(record.error)")
            #expect(record.output == "3 answers recorded for 1 device, written to \(replayPath)\n")
            let bytes = try Data(contentsOf: URL(fileURLWithPath: replayPath))
            let file = try ReplayFile.parse(bytes: Array(bytes), source: replayPath)
            #expect(file.devices.map(\.id) == ["FROZEN"])
            #expect(file.devices[0].requests.map { $0.key.endpoint } == [.skan4, .skan4, .skan3])
            // The documentation's worked example is this recording, for its device QA-1.
            let page = try DocumentationPages.text("docs/comparing-with-production.md")
            let block = try #require(
                DocumentationPages.block(
                    after: "## Freezing production: record and replay\n", language: "json", in: page))
            let sample = try ReplayFile.parse(bytes: Array(block.utf8), source: "docs/comparing-with-production.md")
            #expect(sample.devices.map(\.id) == ["QA-1"])
            #expect(sample.devices.first?.requests == file.devices[0].requests)

            let replay = try TestSKANMock(configure: { $0.replayPath = replayPath })
            // Production's answers, in order, although the default model answers otherwise.
            #expect(try sequence(replay, device: "FROZEN") == recorded)
            #expect(recorded[0].contains(#""conversion_value":0"#))
            let entries = try replay.journal("device=FROZEN")
            #expect(entries.map { $0["replayed"] } == [true, true, true])
            #expect(entries.allSatisfy { $0["issues"]?.arrayValue?.isEmpty == true })
            #expect(entries[0]["model"]?["body"]?.stringValue?.contains(#""conversion_value":1"#) == true)
            // The device's state follows what was answered: production's 0.
            #expect(try replay.admin("/__admin/devices/FROZEN")["skan4"]?["p0"]?["last_returned"]?["fine"] == 0)

            // A third identical session was not recorded, nor was a new device: the model answers.
            let third = try replay.get("/api/v2/conversion_value", session("FROZEN"))
            let fresh = try replay.get("/api/v2/conversion_value", session("NEW"))
            #expect(
                fresh.text
                    == #"{"status":"ok","conversion_value":1,"skan_updated_coarse_value":0,"skan_updated_lock_window_value":false}"#
            )
            #expect(third.status == 200)
            for device in ["FROZEN", "NEW"] {
                let entry = try #require(try replay.journal("device=\(device)").last)
                #expect(entry["replayed"] == false)
                #expect(entry["issues"]?[0]?["code"] == "not_recorded")
            }

            // A reset forgets the devices, and their recorded answers start again.
            _ = try replay.client.request("POST", replay.url("/__admin/reset"))
            #expect(try sequence(replay, device: "FROZEN") == recorded)
        }

        /// `record` never writes over the journal it reads, nor over a file that is not a replay file
        /// without --force (issue 30.2: `--out` naming the journal turned it into a replay file).
        @Test func recordNeverOverwritesItsInputNorAnotherFileWithoutForce() throws {
            let production = try TestSKANMock()
            let upstream = try UpstreamOptions(baseURL: "http://127.0.0.1:\(production.server.port)", mode: .proxy)
            let proxy = try TestSKANMock(configure: { $0.upstream = upstream })
            _ = try sequence(proxy, device: "KEPT")
            #expect(
                try proxy.admin("/__admin/requests/wait?device=KEPT&count=3&timeout_ms=20000")["timed_out"] == false)
            proxy.server.flushJournalLog()
            let journal = try Data(contentsOf: URL(fileURLWithPath: proxy.logPath))

            let itself = try SKANMockExecutable.run(["record", proxy.logPath, "--out", proxy.logPath, "--force"])
            #expect(itself.status == 2)
            #expect(
                itself.error
                    == "skan-mock record: --out \(proxy.logPath) is the journal given as input; give another file\n")
            #expect(try Data(contentsOf: URL(fileURLWithPath: proxy.logPath)) == journal)

            let notes = NSTemporaryDirectory() + "skan-mock-notes-\(UUID().uuidString).txt"
            defer { try? FileManager.default.removeItem(atPath: notes) }
            try Data("keep me\n".utf8).write(to: URL(fileURLWithPath: notes))
            let other = try SKANMockExecutable.run(["record", proxy.logPath, "--out", notes])
            #expect(other.status == 2)
            #expect(
                other.error
                    == "skan-mock record: --out \(notes) exists and is not a replay file; give --force to replace it\n")
            #expect(try String(contentsOfFile: notes, encoding: .utf8) == "keep me\n")

            // A replay file is replaced (recording again), and --force replaces anything else.
            let forced = try SKANMockExecutable.run(["record", proxy.logPath, "--out", notes, "--force"])
            #expect(forced.status == 0, "\(forced.error)")
            let again = try SKANMockExecutable.run(["record", proxy.logPath, "--out", notes])
            #expect(again.status == 0, "\(again.error)")
            let file = try ReplayFile.parse(
                bytes: Array(try Data(contentsOf: URL(fileURLWithPath: notes))), source: notes)
            #expect(file.devices.map(\.id) == ["KEPT"])
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory())
                .filter { $0.hasPrefix((notes as NSString).lastPathComponent + ".") }
            #expect(leftovers.isEmpty)
        }

        @Test func badInputIsOneLineNamingTheFile() throws {
            // A journal with no upstream answer (a run without --upstream) cannot be recorded.
            let plain = try TestSKANMock()
            _ = try plain.get("/api/v2/conversion_value", session("PLAIN"))
            plain.server.flushJournalLog()
            let replayPath = NSTemporaryDirectory() + "skan-mock-replay-\(UUID().uuidString).json"
            defer { try? FileManager.default.removeItem(atPath: replayPath) }
            let none = try SKANMockExecutable.run(["record", plain.logPath, "--out", replayPath])
            #expect(none.status == 2)
            #expect(none.error.hasPrefix("skan-mock record: \(plain.logPath): no entry has an upstream answer"))
            #expect(!FileManager.default.fileExists(atPath: replayPath))
            let missing = try SKANMockExecutable.run(["record", "/nonexistent/run.jsonl", "--out", replayPath])
            #expect(missing.status == 2)
            #expect(
                missing.error
                    == "skan-mock record: cannot read journal /nonexistent/run.jsonl: No such file or directory\n")

            // A replay file that does not read stops the start, naming the file, the JSON path and why.
            try Data(
                #"{"version":1,"devices":[{"device":"A","requests":[{"endpoint":"skan4","state":{},"status":"200","body":""}]}]}"#
                    .utf8
            )
            .write(to: URL(fileURLWithPath: replayPath))
            let started = try SKANMockExecutable.run(["--port", "0", "--replay", replayPath])
            #expect(started.status == 2)
            #expect(
                started.error
                    == "skan-mock: --replay: \(replayPath): $.devices[0].requests[0].status: expected an integer, found string \"200\"\n"
            )
        }
    }
#endif
