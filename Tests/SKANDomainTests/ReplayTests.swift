import Testing

@testable import SKANDomain

/// Record and replay without sockets or files: the key a request is looked up by, the replay file
/// read back, the answers taken in order, and a journal turned into a replay file.
@Suite("Record and replay")
struct ReplayTests {
    private func key(_ endpoint: SKANEndpoint, _ params: [(String, String)], now: Int64 = T0) -> ReplayKey? {
        ReplayKey(
            endpoint: endpoint, parameters: RequestParameters(params.map { (name: $0.0, value: $0.1) }),
            nowMilliseconds: now * 1000)
    }

    // MARK: the key

    @Test func theKeyIsTheTypedStateNotTheText() throws {
        let a = try #require(
            key(
                .skan4,
                skan4Params([
                    ("skan_current_conversion_value", "3"), ("p0_coarse", "1"),
                    ("skan_total_revenue_by_currency", #"{"USD":1.5,"EUR":2}"#)
                ])))
        let b = try #require(
            key(
                .skan4,
                skan4Params([
                    ("p0_coarse", "01"), ("skan_total_revenue_by_currency", #"{"EUR":2.0,"USD":1.5}"#),
                    ("skan_current_conversion_value", "3"), ("skan_last_call_to_skadnetwork_timestamp", String(T0))
                ])))
        #expect(a == b)
        #expect(
            a.stateJSON.description
                == #"{"event":"__SESSION__","window":"p0","current_fine":3,"total_revenue":{"EUR":2,"USD":1.5},"windows":{"p0":{"coarse":1}}}"#
        )
    }

    @Test func everyPartOfTheStateTellsKeysApart() throws {
        let base = try #require(key(.skan4, skan4Params([("skan_current_conversion_value", "3")])))
        let others: [[(String, String)]] = [
            skan4Params(event: "purchase", [("skan_current_conversion_value", "3")]),
            skan4Params([("skan_current_conversion_value", "4")]),
            skan4Params([("skan_current_conversion_value", "3"), ("p0_coarse", "0")]),
            skan4Params([("skan_current_conversion_value", "3"), ("p0_window_lock", String(T0))]),
            skan4Params([("skan_current_conversion_value", "3"), ("skan_total_revenue_by_currency", #"{"USD":1}"#)]),
            skan4Params([("skan_current_conversion_value", "3"), ("p0_total_iap_revenue", #"{"USD":1}"#)]),
            // Three days after the first call: p1.
            skan4Params(first: T0 - 3 * day, [("skan_current_conversion_value", "3")])
        ]
        for params in others {
            #expect(key(.skan4, params) != base, "\(params)")
        }
        // Another first-call time in the same window is the same state: a replayed run is later.
        #expect(key(.skan4, skan4Params(first: T0 - hour, [("skan_current_conversion_value", "3")])) == base)
        #expect(key(.skan3, skan4Params([("skan_current_conversion_value", "3")])) != base)
    }

    @Test func skan3AndS2SKeys() throws {
        let skan3 = try #require(key(.skan3, skan3Params(value: "5", [("total_revenue_by_currency", #"{"USD":2}"#)])))
        #expect(
            skan3.stateJSON.description == #"{"event":"__SESSION__","conversion_value":5,"total_revenue":{"USD":2}}"#)
        // A launch is a session whatever its `n` (the app's name there); S2S takes SKAN 3 names too.
        let launch = try #require(
            key(
                .launch,
                [
                    ("a", "K"), ("p", "iOS"), ("i", "com.x"), ("idfv", "D"), ("n", "Go Go Magnet!"),
                    ("skan_conversion_value", "2"), ("skan_first_call_timestamp", String(T0))
                ]))
        #expect(launch.stateJSON.description == #"{"event":"__SESSION__","window":"p0","current_fine":2}"#)
    }

    // MARK: the replay file

    private func file() throws -> ReplayFile {
        let first = try #require(key(.skan4, skan4Params(device: "QA-1", [("skan_current_conversion_value", "0")])))
        let locked = try #require(
            key(
                .skan4,
                skan4Params(
                    device: "QA-1",
                    [
                        ("skan_current_conversion_value", "0"), ("p0_window_lock", String(T0)),
                        ("p0_coarse", "2"), ("p0_total_admon_revenue", #"{"USD":0.25}"#)
                    ])))
        let skan3 = try #require(key(.skan3, skan3Params(device: "QA-2")))
        return ReplayFile(
            recordedFrom: "run.jsonl",
            devices: [
                ReplayFile.Device(
                    id: "QA-1",
                    requests: [
                        ReplayFile.Request(
                            key: first, status: 200, body: Array(#"{"status":"ok","conversion_value":0}"#.utf8),
                            journalId: 1),
                        ReplayFile.Request(
                            key: first, status: 200, body: Array(#"{"status":"ok","conversion_value":7}"#.utf8),
                            journalId: 2),
                        ReplayFile.Request(key: locked, status: 500, body: Array("<html>".utf8))
                    ]),
                ReplayFile.Device(
                    id: "QA-2", requests: [ReplayFile.Request(key: skan3, status: 200, body: [], journalId: 9)])
            ])
    }

    @Test func aReplayFileReadsBackAsWritten() throws {
        let written = try file()
        let text = written.text
        #expect(
            written.devices[0].requests[2].key.windows[0]
                == ReplayKey.Window(coarse: 2, locked: true, admonRevenue: ["USD": 0.25]))
        #expect(
            String(decoding: text, as: UTF8.self).hasPrefix(
                "{\"version\":1,\"recorded_from\":\"run.jsonl\",\"devices\":[\n{\"device\":\"QA-1\""))
        #expect(try ReplayFile.parse(bytes: text, source: "replay.json") == written)
    }

    private func problem(_ text: String) -> ReplayFileError? {
        do {
            _ = try ReplayFile.parse(bytes: Array(text.utf8), source: "replay.json")
            return nil
        } catch {
            return error
        }
    }

    @Test func aBadReplayFileNamesThePathAndTheReason() {
        let request = #"{"endpoint":"skan4","state":{},"status":200,"body":"{}"}"#
        let cases: [(String, String)] = [
            ("nope", "replay.json: $: not JSON"),
            (#"{"devices":[]}"#, #"replay.json: $: "version" is missing"#),
            (#"{"version":2,"devices":[]}"#, "replay.json: $.version: version 2 is not one this skan-mock reads"),
            (
                #"{"version":1,"devices":[{"device":"A","requests":[{"endpoint":"skan5","state":{},"status":200,"body":""}]}]}"#,
                #"replay.json: $.devices[0].requests[0].endpoint: "skan5" is not an endpoint"#
            ),
            (
                #"{"version":1,"devices":[{"device":"A","requests":[{"endpoint":"skan4","state":{"curent_fine":1},"status":200,"body":""}]}]}"#,
                #"replay.json: $.devices[0].requests[0].state.curent_fine: unknown key "curent_fine" (did you mean "current_fine"?)"#
            ),
            (
                #"{"version":1,"devices":[{"device":"A","requests":[{"endpoint":"skan4","state":{"windows":{"p0":{"locked":1}}},"status":200,"body":""}]}]}"#,
                "replay.json: $.devices[0].requests[0].state.windows.p0.locked: expected true or false"
            ),
            (
                #"{"version":1,"devices":[{"device":"A","requests":[{"endpoint":"skan4","state":{},"status":42,"body":""}]}]}"#,
                "replay.json: $.devices[0].requests[0].status: status 42 is not an HTTP status from 200 to 599"
            ),
            (
                #"{"version":1,"devices":[{"device":"A","requests":[]},{"device":"A","requests":[\#(request)]}]}"#,
                #"replay.json: $.devices[1].device: device "A" is also at $.devices[0]"#
            )
        ]
        for (text, expected) in cases {
            let error = problem(text)
            #expect(error?.description.hasPrefix(expected) == true, "\(text): \(error.map { "\($0)" } ?? "no error")")
        }
    }

    /// Issue 30.10, 30.13: what would hang a client or break the next response's framing is
    /// refused in the file, by the rule the proxy and `record` use.
    @Test(arguments: [
        (#""status":100,"body":"""#, "status: status 100 is an interim (1xx) answer"),
        (#""status":101,"body":"""#, "status: status 101 is an interim (1xx) answer"),
        (#""status":999,"body":"""#, "status: status 999 is not an HTTP status from 200 to 599"),
        (#""status":204,"body":"x""#, "status: status 204 carries no body in HTTP/1.1, but this answer has 1 bytes"),
        (#""status":304,"body_base64":"AAE=""#, "status: status 304 carries no body in HTTP/1.1"),
        (#""status":200,"body":"","body_base64":"""#, "body_base64: give \"body\" or \"body_base64\", not both"),
        (#""status":200,"body_base64":"%%%%""#, "body_base64: not base64"),
        (#""status":200"#, #"requests[0]: "body" is missing"#)
    ])
    func answersThatCannotBePassedOnAreRefused(members: String, expected: String) {
        let text =
            #"{"version":1,"devices":[{"device":"A","requests":[{"endpoint":"skan4","state":{},"#
            + members + "}]}]}"
        let error = problem(text)
        #expect(
            error?.description.hasPrefix("replay.json: $.devices[0].requests[0]") == true
                && error?.description.contains(expected) == true,
            "\(error.map { "\($0)" } ?? "no error")")
    }

    /// Issue 30.14: keys no request can have are refused with their JSON path.
    @Test(arguments: [
        (#""endpoint":"skan4","state":{"current_fine":999}"#, "state.current_fine: 999 is outside 0...63"),
        (#""endpoint":"skan4","state":{"current_fine":-1}"#, "state.current_fine: -1 is outside 0...63"),
        (#""endpoint":"skan3","state":{"conversion_value":64}"#, "state.conversion_value: 64 is outside 0...63"),
        (#""endpoint":"skan4","state":{"windows":{"p1":{"coarse":3}}}"#, "state.windows.p1.coarse: 3 is outside 0...2")
    ])
    func impossibleKeyValuesAreRefused(members: String, expected: String) {
        let text =
            #"{"version":1,"devices":[{"device":"A","requests":[{"# + members + #","status":200,"body":""}]}]}"#
        #expect(problem(text)?.description == "replay.json: $.devices[0].requests[0]." + expected)
    }

    /// Issue 30.14: a device id no request can name (bytes that are not UTF-8, a lone surrogate).
    @Test func aDeviceIdThatIsNotUTF8IsRefused() {
        var bytes = Array(#"{"version":1,"devices":[{"device":"A"#.utf8)
        bytes += [0xFF, 0xFE]
        bytes += Array(#"","requests":[]}]}"#.utf8)
        let raw: ReplayFileError?
        do {
            _ = try ReplayFile.parse(bytes: bytes, source: "replay.json")
            raw = nil
        } catch {
            raw = error
        }
        #expect(raw?.path == "$")
        #expect(raw?.reason.contains("not valid UTF-8") == true)
        #expect(
            problem(#"{"version":1,"devices":[{"device":"A\udc80","requests":[]}]}"#)?.description.hasPrefix(
                "replay.json: $.devices[0].device: the device id is not valid UTF-8") == true)
    }

    /// Issue 30.14: a body that is not UTF-8 is written as `body_base64` and read back exactly.
    @Test func aBodyThatIsNotUTF8RoundTripsAsBase64() throws {
        let key = ReplayKey(endpoint: .skan4, value: 1)
        let body: [UInt8] = [0x7B, 0xFF, 0x00, 0xC3, 0x7D]
        let written = ReplayFile(
            devices: [
                ReplayFile.Device(
                    id: "A",
                    requests: [
                        ReplayFile.Request(key: key, status: 200, body: body),
                        ReplayFile.Request(key: key, status: 200, body: Array("{\"é\":1}".utf8))
                    ])
            ])
        let text = String(decoding: written.text, as: UTF8.self)
        #expect(text.contains(#""body_base64":"e/8Aw30=""#))
        #expect(text.contains(#""body":"{\"é\":1}""#))
        #expect(try ReplayFile.parse(bytes: written.text, source: "replay.json") == written)
    }

    // MARK: taking answers

    /// Issue 46.5: each tenant has its own place in the recording, and a reset rewinds its own only
    /// (the default tenant's reset rewound every tenant's).
    @Test func eachTenantTakesAndRewindsItsOwnAnswers() throws {
        let replay = Replay(try file(), source: "replay.json")
        let first = try #require(key(.skan4, skan4Params(device: "QA-1", [("skan_current_conversion_value", "0")])))
        #expect(replay.take(device: "QA-1", key: first)?.journalId == 1)
        #expect(replay.take(device: "QA-1", key: first, tenant: "a")?.journalId == 1)
        #expect(replay.take(device: "QA-1", key: first, tenant: "a") != nil)
        #expect(replay.take(device: "QA-1", key: first, tenant: "a") == nil)
        replay.rewind()
        #expect(replay.take(device: "QA-1", key: first, tenant: "a") == nil)
        #expect(replay.take(device: "QA-1", key: first)?.journalId == 1)
        replay.rewind(tenant: "a")
        #expect(replay.take(device: "QA-1", key: first, tenant: "a")?.journalId == 1)
        #expect(replay.take(device: "QA-1", key: first) != nil)
        #expect(replay.take(device: "QA-1", key: first) == nil)
    }

    @Test func answersAreTakenInOrderPerDeviceAndKey() throws {
        let replay = Replay(try file(), source: "replay.json")
        let first = try #require(key(.skan4, skan4Params(device: "QA-1", [("skan_current_conversion_value", "0")])))
        #expect(replay.take(device: "QA-1", key: first)?.journalId == 1)
        // Another device with the same state has nothing recorded.
        #expect(replay.take(device: "QA-3", key: first) == nil)
        #expect(replay.take(device: "QA-1", key: first)?.body == Array(#"{"status":"ok","conversion_value":7}"#.utf8))
        // Both identical requests' answers are taken: a third gets none.
        #expect(replay.take(device: "QA-1", key: first) == nil)
        let finding = replay.notRecorded(device: "QA-1", key: first)
        #expect(finding.code == .notRecorded)
        #expect(
            finding.message.hasPrefix("the 2 answers replay.json has for device QA-1 with this state were all replayed")
        )
        #expect(replay.take(device: nil, key: first) == nil)
        #expect(
            replay.notRecorded(device: "QA-9", key: first).message.hasPrefix(
                "replay.json has no answers for device QA-9"))
        replay.rewind()
        #expect(replay.take(device: "QA-1", key: first)?.journalId == 1)
        #expect(replay.answerCount == 4)
        #expect(replay.deviceCount == 2)
    }

    // MARK: recording a journal

    /// A journal line of a proxy run: `params` as sent, production's answer in `upstream`.
    private func line(id: Int, device: String, value: Int, upstream: String?) -> String {
        let params = skan4Params(device: device, [("skan_current_conversion_value", String(value))])
        let members = params.map { "\(JSONValue.string($0.0)):\(JSONValue.string($0.1))" }.joined(separator: ",")
        return
            #"{"id":\#(id),"time":"\#(RFC3339.format(milliseconds: T0 * 1000))","method":"GET","path":"/api/v2/conversion_value","endpoint":"skan4","device":"\#(device)","params":{\#(members)},"response":{"status":200,"body":"{}"}"#
            + (upstream.map { #","upstream":\#($0)}"# } ?? "}")
    }

    /// Issue 30.14: an upstream body the journal keeps as `body_base64` is recorded byte for byte;
    /// issue 30.10: an answer `--replay` would refuse is refused when recording, naming the line.
    @Test func recordingKeepsBytesAndRefusesWhatCannotBeReplayed() throws {
        let bytes = line(
            id: 1, device: "QA-1", value: 0, upstream: #"{"status":200,"body_base64":"e/8Aw30=","duration_us":10}"#)
        let recording = try ReplayRecording(jsonLines: Array(bytes.utf8), source: "run.jsonl")
        #expect(recording.file.devices[0].requests[0].body == [0x7B, 0xFF, 0x00, 0xC3, 0x7D])
        #expect(try ReplayFile.parse(bytes: recording.file.text, source: "r.json") == recording.file)
        let broken = [
            line(id: 1, device: "QA-1", value: 0, upstream: #"{"status":200,"body":"{}","duration_us":10}"#),
            line(id: 2, device: "QA-1", value: 1, upstream: #"{"status":999,"body":"","duration_us":10}"#)
        ].joined(separator: "\n")
        do {
            _ = try ReplayRecording(jsonLines: Array(broken.utf8), source: "run.jsonl")
            Issue.record("recorded")
        } catch {
            #expect(
                error.description
                    == "run.jsonl: line 2: the upstream's answer cannot be replayed: status 999 is not an HTTP status from 200 to 599"
            )
        }
    }

    @Test func aJournalBecomesAReplayFile() throws {
        let journal = [
            line(
                id: 1, device: "QA-1", value: 0,
                upstream: #"{"status":200,"body":"{\"status\":\"ok\",\"conversion_value\":4}","duration_us":10}"#),
            line(id: 2, device: "QA-2", value: 0, upstream: #"{"error":"timeout","reason":"slow","duration_us":10}"#),
            line(id: 3, device: "QA-1", value: 4, upstream: #"{"status":503,"body":"down","duration_us":10}"#),
            line(id: 4, device: "QA-3", value: 0, upstream: nil),
            ""
        ].joined(separator: "\n")
        let recording = try ReplayRecording(jsonLines: Array(journal.utf8), source: "run.jsonl")
        #expect(recording.file.devices.map(\.id) == ["QA-1"])
        #expect(recording.file.devices[0].requests.map(\.status) == [200, 503])
        #expect(recording.file.devices[0].requests.map(\.journalId) == [1, 3])
        #expect(
            recording.file.devices[0].requests[0].key
                == key(.skan4, skan4Params(device: "QA-1", [("skan_current_conversion_value", "0")])))
        #expect(recording.withoutUpstreamAnswer == 2)
        #expect(recording.summary == "2 answers recorded for 1 device (entries left out: 2 without an upstream answer)")
    }

    @Test func aJournalThatCannotBeRecordedSaysWhy() {
        func error(_ text: String) -> String {
            do {
                _ = try ReplayRecording(jsonLines: Array(text.utf8), source: "run.jsonl")
                return "recorded"
            } catch {
                return error.description
            }
        }
        let good = line(id: 1, device: "QA-1", value: 0, upstream: #"{"status":200,"body":"{}","duration_us":1}"#)
        #expect(error(good + "\n{\"id\":2,\n").hasPrefix("run.jsonl: line 2: not JSON: invalid JSON at byte 8"))
        #expect(error(good + "\n{\"id\":2,\n").hasSuffix("so not a journal entry (is this the --log file of a run?)"))
        #expect(
            error(line(id: 1, device: "QA-1", value: 0, upstream: nil)).hasPrefix(
                "run.jsonl: no entry has an upstream answer"))
        #expect(error("").hasPrefix("run.jsonl: no entry has an upstream answer"))
    }
}
