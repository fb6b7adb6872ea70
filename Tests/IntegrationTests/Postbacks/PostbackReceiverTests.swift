import Foundation
import SKANDomain
import SKANReport
import Testing

@testable import SKANMock

#if SKAN_MOCK_TLS
    import SKANTLS
#endif

/// Issue 40.8-10 over real sockets: postbacks POSTed where Apple posts the developer's copies are
/// answered 200 (400 for a body that is not one), journaled as endpoint `postback`, verified, and
/// compared with skan-mock's prediction by `GET /__admin/postbacks/received`.
@Suite("Received postbacks over real sockets")
struct PostbackReceiverTests {
    static let skanPath = "/.well-known/skadnetwork/report-attribution/"
    static let aakPath = "/.well-known/appattribution/report-attribution/"

    static func skan4(_ extra: String = "") -> [UInt8] {
        Array(
            #"{"version":"4.0","ad-network-id":"example123.skadnetwork","source-identifier":"1234","app-id":123456789,"transaction-id":"6aafb7a5-0170-41b5-bbe4-fe71dedf1e31","redownload":false,"source-app-id":987654321,"fidelity-type":1,"did-win":true,"postback-sequence-index":0\#(extra)}"#
                .utf8)
    }

    func post(_ mock: TestSKANMock, _ path: String, _ body: [UInt8]) throws -> CurlClient.Response {
        try mock.client.request("POST", mock.url(path), body: body, headers: ["Content-Type: application/json"])
    }

    /// A first session now: fine 1 in p0.
    func session(_ mock: TestSKANMock, _ device: String) throws {
        let first = String(TestSKANMock.start)
        let answer = try mock.get(
            "/api/v2/conversion_value",
            [
                ("a", "K"), ("i", "com.x"), ("p", "iOS"), ("idfv", device), ("n", "__SESSION__"),
                ("skan_first_call_to_skadnetwork_timestamp", first)
            ])
        #expect(answer.text.contains(#""conversion_value":1"#))
    }

    @Test func everyPathTakesAPostbackAndTheJournalHasIt() throws {
        let mock = try TestSKANMock()
        let paths = [
            Self.skanPath, String(Self.skanPath.dropLast()), Self.aakPath, String(Self.aakPath.dropLast())
        ]
        let aak = Array(
            #"{"jws-string":"eyJraWQiOiJ4IiwiYWxnIjoiRVMyNTYifQ.eyJwb3N0YmFjay1pZGVudGlmaWVyIjoiQSJ9.AA","conversion-value":3}"#
                .utf8)
        for path in paths {
            let answer = try post(mock, path, path.contains("skadnetwork") ? Self.skan4() : aak)
            #expect(answer.status == 200, "\(path): \(answer.text)")
            #expect(try JSONValue.parse(answer)["status"] == "ok")
        }
        let journal = try mock.journal("endpoint=postback")
        #expect(journal.map { $0["path"]?.stringValue } == paths)
        #expect(journal[0]["postback"]?["transaction_id"] == "6aafb7a5-0170-41b5-bbe4-fe71dedf1e31")
        #if SKAN_MOCK_TLS
            #expect(journal[2]["postback"]?["reason"] == "unverified: unknown key x")
        #else
            #expect(
                journal[2]["postback"]?["reason"]
                    == "unverified: this build of skan-mock has no TLS (OpenSSL), so it cannot check signatures")
        #endif
        let received = try mock.admin("/__admin/postbacks/received")
        #expect(received["postbacks"]?.arrayValue?.count == 4)
        #expect(received["postbacks"]?[2]?["decoded"]?["fine"] == 3)
        #expect(received["postbacks"]?[2]?["jws"]?["header"]?["kid"] == "x")
        // A reset forgets them.
        #expect(try mock.client.request("POST", mock.url("/__admin/reset"), body: []).status == 200)
        #expect(try mock.admin("/__admin/postbacks/received")["postbacks"] == [])
    }

    @Test func aBodyThatIsNotAPostbackIs400NamingWhyAndJournaled() throws {
        let mock = try TestSKANMock()
        let bad = try post(mock, Self.skanPath, Array(#"{"version":"4.0","ad-network-id":"x"}"#.utf8))
        #expect(bad.status == 400)
        #expect(try JSONValue.parse(bad)["reason"] == "transaction-id is missing")
        let wrongPlace = try post(mock, Self.aakPath, Self.skan4())
        #expect(wrongPlace.status == 400)
        #expect(
            try JSONValue.parse(wrongPlace)["reason"]?.stringValue?.hasPrefix("this is a SKAdNetwork postback") == true)
        let get = try mock.client.get(mock.url(Self.skanPath))
        #expect(get.status == 405 && get.header("Allow") == "POST")
        let journal = try mock.journal("endpoint=postback")
        #expect(journal.map { $0["response"]?["status"]?.intValue } == [400, 400, 405])
        #expect(journal[0]["issues"]?[0]?["code"] == "postback_malformed")
        #expect(try mock.admin("/__admin/postbacks/received")["postbacks"] == [])
        let unknown = try mock.client.get(mock.url("/__admin/postbacks/received?dev=1"))
        #expect(unknown.status == 400)
        let twice = try mock.client.get(
            mock.url("/__admin/postbacks/received?developer_mode=true&developer_mode=false"))
        #expect(
            try twice.status == 400
                && JSONValue.parse(twice)["reason"] == "developer_mode must be given once, true or false")
    }

    @Test func theComparisonMatchesDiffersOrListsCandidates() throws {
        let mock = try TestSKANMock()
        try session(mock, "QA-1")
        mock.clock.advance(seconds: 3 * 86_400)
        #expect(try post(mock, Self.skanPath + "?device=QA-1", Self.skan4(#","conversion-value":1"#)).status == 200)
        #expect(try post(mock, Self.skanPath + "?device=QA-1", Self.skan4(#","conversion-value":5"#)).status == 200)
        #expect(try post(mock, Self.skanPath, Self.skan4(#","conversion-value":1"#)).status == 200)
        let all = try #require(try mock.admin("/__admin/postbacks/received")["postbacks"]?.arrayValue)
        #expect(all.map { $0["comparison"]?["result"] } == ["matches", "differs", "unmatched"])
        #expect(all[1]["comparison"]?["differences"] == ["conversion-value is 5, skan-mock predicts 1"])
        #expect(all[2]["comparison"]?["candidates"] == ["QA-1"])
        #expect(all[0]["decoded"]?["meaning"]?[0]?["when"] != nil)
        #expect(all[0]["verified"]?["verified"] == false)
        let named = try #require(try mock.admin("/__admin/postbacks/received?device=QA-1")["postbacks"]?.arrayValue)
        #expect(named.map { $0["comparison"]?["result"] } == ["matches", "differs", "matches"])
        let stranger = try #require(
            try mock.admin("/__admin/postbacks/received?device=NOBODY")["postbacks"]?.arrayValue)
        #expect(stranger.map { $0["named_device"] } == [.null])
        #expect(
            stranger[0]["comparison"]?["differences"]
                == ["skan-mock does not know device NOBODY: it has made no prediction for it"])
    }

    /// The journal a receiving server writes is read back by `--resume` and `skan-mock report`.
    @Test func resumeAndReportReadAJournalWithPostbacks() throws {
        let log = NSTemporaryDirectory() + "skan-postbacks-\(UUID().uuidString).jsonl"
        defer { try? FileManager.default.removeItem(atPath: log) }
        do {
            let first = try TestSKANMock { $0.logPath = log }
            try session(first, "QA-1")
            #expect(try post(first, Self.skanPath + "?device=QA-1", Self.skan4()).status == 200)
            #expect(try post(first, Self.skanPath, Array("x".utf8)).status == 400)
            first.server.stop()
        }
        let restarted = try TestSKANMock {
            $0.logPath = log
            $0.resume = true
        }
        #expect(restarted.server.notices.contains { $0.hasPrefix("skan-mock: resumed 3 journal entries") })
        #expect(try restarted.journal("endpoint=postback").count == 2)
        let report = JournalReport(jsonLines: Array(try Data(contentsOf: URL(fileURLWithPath: log))))
        #expect(report.unreadableLines.isEmpty)
        #expect(report.devices.map(\.device) == ["QA-1"] && report.devices[0].requests == 1)
    }

    /// Issue 40.10: `skan-mock report` reads the postbacks a server received from its journal file
    /// and compares them as the route does; in JUnit a difference fails, no device named skips.
    @Test func theReportComparesTheReceivedPostbacksFromTheJournalFile() throws {
        let dir = NSTemporaryDirectory() + "skan-received-report-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let log = dir + "/journal.jsonl"
        do {
            let mock = try TestSKANMock { $0.logPath = log }
            try session(mock, "QA-1")
            mock.clock.advance(seconds: 3 * 86_400)
            let matching = try post(mock, Self.skanPath + "?device=QA-1", Self.skan4(#","conversion-value":1"#))
            let differing = try post(mock, Self.skanPath + "?device=QA-1", Self.skan4(#","conversion-value":5"#))
            let phone = try post(mock, Self.skanPath, Self.skan4(#","conversion-value":1"#))
            #expect([matching.status, differing.status, phone.status] == [Int](repeating: 200, count: 3))
            mock.server.stop()
        }
        let junit = dir + "/skan.xml"
        let run = try SKANMockExecutable.run(["report", log, "--json", "--junit", junit])
        #expect(run.status == 0, "\(run.error)")
        let json = try JSONParser.parse(Array(run.output.utf8))
        let received = try #require(json["received_postbacks"]?.arrayValue)
        #expect(received.map { $0["comparison"]?["result"] } == ["matches", "differs", "unmatched"])
        #expect(received[1]["comparison"]?["differences"] == ["conversion-value is 5, skan-mock predicts 1"])
        #expect(received[2]["comparison"]?["candidates"] == ["QA-1"])
        #expect(received[0]["decoded"]?["transaction_id"] == "6aafb7a5-0170-41b5-bbe4-fe71dedf1e31")
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains(#"tests="5" failures="1" errors="0" skipped="1""#), "\(xml)")
        #expect(
            xml.contains(#"<failure type="postback_differs" message="conversion-value is 5, skan-mock predicts 1"/>"#))

        // The phone's postback compared with QA-1, and CI failing on the difference.
        let named = try SKANMockExecutable.run(["report", log, "--postback-device", "QA-1", "--fail-on-findings"])
        #expect(named.status == 1, "\(named.error)")
        #expect(named.output.contains("received postbacks: 3 (2 matches, 1 differs)"), "\(named.output)")
        #expect(
            named.output.contains(
                "fine 5, device QA-1: differs (conversion-value is 5, skan-mock predicts 1); unverified: the postback has no attribution-signature"
            ))
        let empty = try SKANMockExecutable.run(["report", log, "--postback-device", ""])
        #expect(empty.status == 64 && empty.error.contains("--postback-device must not be empty"), "\(empty.error)")
    }

    /// Issue 48: a received postback's journal line says, typed, what it says and how it compared
    /// with the prediction when it arrived, so the journal alone (a saved file, the console) has
    /// the verdict; postbacks are counted in the metrics as every exchange is.
    @Test func theJournalSaysHowEachPostbackComparedWhenItArrived() throws {
        let mock = try TestSKANMock()
        try session(mock, "QA-1")
        mock.clock.advance(seconds: 3 * 86_400)
        for (path, value) in [
            ("?device=QA-1", 1), ("?device=QA-1", 5), ("", 1), ("?device=NOBODY", 1)
        ] {
            #expect(try post(mock, Self.skanPath + path, Self.skan4(#","conversion-value":\#(value)"#)).status == 200)
        }
        let journal = try mock.journal("endpoint=postback").compactMap { $0["postback"] }
        #expect(
            journal.map { $0["comparison"]?["result"] } == ["matches", "differs", "unverified", "differs"])
        let first = try #require(journal.first)
        #expect(first["framework"] == "skan" && first["version"] == "4.0" && first["index"] == 0)
        #expect(first["fine"] == 1 && first["coarse"] == .null && first["source_identifier"] == "1234")
        #expect(first["comparison"]?["tier"] == 3 && first["comparison"]?["predicted"]?["fine"] == 1)
        #expect(journal[1]["comparison"]?["differences"] == ["conversion-value is 5, skan-mock predicts 1"])
        #expect(journal[3]["comparison"]?["predicted"] == .null)
        // The verdict is the one the admin route gives for the same device.
        let listed = try #require(try mock.admin("/__admin/postbacks/received")["postbacks"]?.arrayValue)
        #expect(listed.map { $0["comparison"]?["result"] } == ["matches", "differs", "unmatched", "differs"])
        let metrics = try mock.client.get(mock.url("/__admin/metrics")).text
        #expect(metrics.contains(#"endpoint="postback",status="200"} 4"#), "\(metrics)")
    }

    /// Issue 48: a sent postback's journal line says what was sent, typed, verified and compared as
    /// a received one's is.
    @Test func theJournalSaysWhatTheSenderSent() throws {
        let mock = try TestSKANMock()
        try session(mock, "QA-1")
        mock.clock.advance(seconds: 3 * 86_400)
        let send = try mock.client.request(
            "POST", mock.url("/__admin/devices/QA-1/postbacks/send"),
            body: Array(#"{"url":"\#(mock.url(Self.skanPath + "?device=QA-1"))","tier":3}"#.utf8))
        #expect(send.status == 200, "\(send.text)")
        let sent = try mock.journal("endpoint=postback").compactMap { $0["sent"] }
        #expect(sent.map { $0["window"] } == ["p0", "p1", "p2"])
        #expect(sent.map { $0["index"] } == [0, 1, 2] && sent.allSatisfy { $0["framework"] == "skan" })
        #expect(sent[0]["fine"] == 1 && sent[0]["version"] == "4.0" && sent[0]["source_identifier"] != .null)
        // What was sent is the prediction: it matches it, and says whether its signature verifies.
        #expect(sent.map { $0["comparison"]?["result"] } == ["matches", "matches", "matches"])
        #expect(sent.allSatisfy { $0["verified"]?.boolValue != nil && $0["bad_signature"] == false })
        let received = try mock.journal("endpoint=postback").compactMap { $0["postback"] }
        #expect(received.map { $0["comparison"]?["result"] } == ["matches", "matches", "matches"])
    }

    /// Issue 40.11: the sender POSTs a device's predicted postbacks, and skan-mock's own receiver
    /// takes them: every one matches the prediction it came from.
    @Test func theSenderPostsThePredictionToTheReceiver() throws {
        let mock = try TestSKANMock()
        try session(mock, "QA-1")
        mock.clock.advance(seconds: 3 * 86_400)
        let send = try mock.client.request(
            "POST", mock.url("/__admin/devices/QA-1/postbacks/send"),
            body: Array(#"{"url":"\#(mock.url(""))","tier":3}"#.utf8))
        #expect(send.status == 200, "\(send.text)")
        let answer = try JSONValue.parse(send)
        #expect(answer["sent"]?.arrayValue?.map { $0["window"] } == ["p0", "p1", "p2"])
        #expect(answer["sent"]?.arrayValue?.map { $0["status"] } == [200, 200, 200])
        let received = try #require(try mock.admin("/__admin/postbacks/received?device=QA-1")["postbacks"]?.arrayValue)
        #expect(received.map { $0["comparison"]?["result"] } == ["matches", "matches", "matches"])
        #expect(received.map { $0["path"] } == Array(repeating: .string(Self.skanPath), count: 3))
        let aak = try mock.client.request(
            "POST", mock.url("/__admin/devices/QA-1/postbacks/send"),
            body: Array(#"{"url":"\#(mock.url(Self.aakPath))","tier":2,"framework":"aak"}"#.utf8))
        #expect(try JSONValue.parse(aak)["sent"]?.arrayValue?.map { $0["status"] } == [200, 200, 200])
        let both = try #require(try mock.admin("/__admin/postbacks/received?device=QA-1")["postbacks"]?.arrayValue)
        #expect(both.dropFirst(3).map { $0["comparison"]?["result"] } == ["matches", "matches", "matches"])
        #expect(both.dropFirst(3).map { $0["decoded"]?["tier"] } == [2, 3, 3])
        // Each send is journaled with what came back.
        let sent = try mock.journal("endpoint=postback").filter { $0["sent"] != nil }
        #expect(sent.count == 6 && sent[0]["response"]?["status"] == 200 && sent[0]["device"] == "QA-1")
    }

    @Test(arguments: [
        (#"{"tier":3}"#, "$: \"url\" is missing"),
        (#"{"url":"https://example.com"}"#, "url is https://, but the sender speaks plain HTTP only"),
        (#"{"url":"http://127.0.0.1:0"}"#, "url has a bad port (1 to 65535)"),
        (#"{"url":"http://127.0.0.1:1","tier":4}"#, "$.tier: 4 is outside 0...3"),
        (#"{"url":"http://127.0.0.1:1","framework":"x"}"#, "$.framework: expected skan or aak"),
        (#"{"url":"http://127.0.0.1:1","tiers":3}"#, "$.tiers: unknown key"),
        ("url=x", "the body is not JSON")
    ])
    func theSenderRefusesABadRequestNamingWhy(body: String, reason: String) throws {
        let mock = try TestSKANMock()
        try session(mock, "QA-1")
        let answer = try mock.client.request(
            "POST", mock.url("/__admin/devices/QA-1/postbacks/send"), body: Array(body.utf8))
        #expect(answer.status == 400)
        #expect(try JSONValue.parse(answer)["reason"]?.stringValue?.hasPrefix(reason) == true, "\(answer.text)")
    }

    @Test func theSenderNamesAnUnknownDeviceAndAnUnreachableReceiver() throws {
        let mock = try TestSKANMock()
        let unknown = try mock.client.request(
            "POST", mock.url("/__admin/devices/NOBODY/postbacks/send"),
            body: Array(#"{"url":"http://127.0.0.1:1"}"#.utf8))
        #expect(unknown.status == 404)
        try session(mock, "QA-1")
        let refused = try mock.client.request(
            "POST", mock.url("/__admin/devices/QA-1/postbacks/send"), body: Array(#"{"url":"http://127.0.0.1:1"}"#.utf8)
        )
        #expect(refused.status == 200)
        let first = try JSONValue.parse(refused)["sent"]?[0]
        #expect(
            first?["status"] == 0 && first?["error"]?.stringValue?.hasPrefix("cannot connect to 127.0.0.1:1") == true)
    }

    #if SKAN_MOCK_TLS
        /// Over HTTPS: skan-mock's own signed postbacks verify with its CA key, a changed one is a
        /// finding, and Apple's published example verifies with Apple's development key.
        @Test func signaturesAreVerifiedOverHTTPS() throws {
            let folder = NSTemporaryDirectory() + "skan-receive-\(UUID().uuidString)"
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let mock = try TestSKANMock(configure: { options in
                options.https = HTTPSOptions(port: 0, stateDirectory: folder)
            })
            let caPath = folder + "/served-ca.pem"
            try Data(try mock.client.get(mock.url("/__admin/ca.pem")).body).write(to: URL(fileURLWithPath: caPath))
            let https = CurlClient()
            https.tls = CurlClient.TLSSettings(caFile: caPath)
            let base = "https://127.0.0.1:\(try #require(mock.server.httpsPort))"
            try session(mock, "QA-1")
            mock.clock.advance(seconds: 3 * 86_400)
            let predicted = try mock.admin("/__admin/devices/QA-1/postbacks?tier=3")
            let apple = try #require(predicted["skan4"]?[0]?["postbacks"]?[0]?["apple"])
            let ok = try https.request(
                "POST", base + Self.skanPath + "?device=QA-1", body: JSONWriter.serialize(apple))
            #expect(try ok.status == 200 && JSONValue.parse(ok)["verified"] == true)
            var changed = apple.objectValue ?? []
            for i in changed.indices where changed[i].key == "transaction-id" { changed[i].value = "changed" }
            let bad = try https.request("POST", base + Self.skanPath, body: JSONWriter.serialize(.object(changed)))
            #expect(try bad.status == 200 && JSONValue.parse(bad)["verified"] == false)
            let aak = try mock.admin("/__admin/devices/QA-1/postbacks?tier=3&framework=aak")
            let jws = try #require(aak["skan4"]?[0]?["postbacks"]?[0]?["apple"])
            #expect(try https.request("POST", base + Self.aakPath, body: JSONWriter.serialize(jws)).status == 200)
            let example = Array(
                #"{"jws-string":"\#(Self.appleJWS)","conversion-value":24,"ad-interaction-type":"click","country-code":"US"}"#
                    .utf8)
            #expect(try https.request("POST", base + Self.aakPath, body: example).status == 200)

            let all = try #require(try mock.admin("/__admin/postbacks/received")["postbacks"]?.arrayValue)
            #expect(all.map { $0["verified"]?["verified"] } == [true, false, true, true])
            #expect(all[0]["verified"]?["key"]?.stringValue?.hasPrefix("skan-mock-ca-") == true)
            #expect(all[0]["comparison"]?["result"] == "matches")
            #expect(all[1]["verified"]?["bad_signature"] == true)
            #expect(all[3]["verified"]?["key"] == "apple-development-identifier/1")
            let journal = try mock.journal("endpoint=postback")
            #expect(journal.map { $0["tls"] != .null } == [true, true, true, true])
            #expect(journal[1]["issues"]?[0]?["code"] == "postback_signature_invalid")
            // The sender's postbacks are signed with the same key, and verify.
            let send = try mock.client.request(
                "POST", mock.url("/__admin/devices/QA-1/postbacks/send"),
                body: Array(#"{"url":"\#(mock.url(""))","framework":"aak"}"#.utf8))
            #expect(send.status == 200)
            let after = try #require(try mock.admin("/__admin/postbacks/received")["postbacks"]?.arrayValue)
            #expect(after.dropFirst(4).map { $0["verified"]?["verified"] } == [true, true, true])
            #expect(after.dropFirst(4).map { $0["comparison"]?["result"] } == ["unmatched", "unmatched", "unmatched"])
        }

        /// Apple's published example (a development postback from developer settings) verifies
        /// with the key Apple publishes for `apple-development-identifier/1`, through OpenSSL.
        @Test func applesExampleVerifiesWithApplesKey() throws {
            let postback = try ReceivedPostback.parse(
                Array(#"{"jws-string":"\#(Self.appleJWS)","conversion-value":24}"#.utf8), framework: .aak
            ).get()
            let verdict = PostbackVerifier.server(local: nil).verify(postback)
            #expect(verdict.verified && verdict.key == "apple-development-identifier/1")
        }
    #endif

    /// From https://developer.apple.com/documentation/adattributionkit/identifying-the-parameters-in-a-postback
    static let appleJWS =
        "eyJraWQiOiJhcHBsZS1kZXZlbG9wbWVudC1pZGVudGlmaWVyXC8xIiwiYWxnIjoiRVMyNTYifQ.eyJwb3N0YmFjay1pZGVudGlmaWVyIjoiODU1NDZFQjctRkQzOS00NEJDLTg5OTAtQzk4QTRBQzM2QTQ5IiwicHVibGlzaGVyLWl0ZW0taWRlbnRpZmllciI6MCwibWFya2V0cGxhY2UtaWRlbnRpZmllciI6ImNvbS5hcHBsZS5BcHBTdG9yZSIsImltcHJlc3Npb24tdHlwZSI6ImFwcC1pbXByZXNzaW9uIiwiYWQtbmV0d29yay1pZGVudGlmaWVyIjoiZGV2ZWxvcG1lbnQuYWRhdHRyaWJ1dGlvbmtpdCIsImRpZC13aW4iOnRydWUsInBvc3RiYWNrLXNlcXVlbmNlLWluZGV4IjowLCJjb252ZXJzaW9uLXR5cGUiOiJyZS1lbmdhZ2VtZW50Iiwic291cmNlLWlkZW50aWZpZXIiOiIxMjM0IiwiYWR2ZXJ0aXNlZC1pdGVtLWlkZW50aWZpZXIiOjEwNzM4MDI3NzU2fQ.bAdNwKd6OfHK9tofvjjua4X_JPcFTxXPQSspD9gZkinw97pY7R1aI-LSjl-oxZZF3_K2H5JK5TSEBee4_1U4oQ"
}
