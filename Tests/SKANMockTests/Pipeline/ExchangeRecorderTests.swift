import HTTPCore
import SKANDomain
import Testing

@testable import SKANMock

/// Stage 4: every request is journaled and counted once, whatever answered it.
@Suite("Recorded once")
struct ExchangeRecorderTests {
    @Test func everyRequestIsOneEntryAndOneCount() throws {
        let mock = try InProcessServer()
        #expect(mock.send(.get, "/nowhere").status == 404)
        #expect(mock.send(.delete, "/api/v1/evt").response?.headers["Allow"] == "GET, HEAD, POST")
        #expect(
            mock.send(.post, "/api/v1/evt", headers: ["Content-Type": "application/json"], body: "{}").status == 200)
        #expect(mock.session("R-1").status == 200)
        let entries = mock.entries
        #expect(entries.compactMap { $0["response"]?["status"]?.intValue } == [404, 405, 200, 200])
        #expect(
            entries.compactMap { $0["issues"]?[0]?["code"]?.stringValue }.prefix(3) == [
                "unknown_endpoint", "method_not_allowed", "unsupported_body"
            ])
        let metrics = mock.metrics
        for line in [
            #"skan_mock_requests_total{endpoint="unmatched",status="404"} 1"#,
            #"skan_mock_requests_total{endpoint="event",status="405"} 1"#,
            #"skan_mock_requests_total{endpoint="event",status="200"} 1"#,
            #"skan_mock_requests_total{endpoint="skan4",status="200"} 1"#
        ] {
            #expect(metrics.contains(line), "\(line)")
        }
        #expect(metrics.contains("skan_mock_request_duration_seconds_count 4"))
    }

    /// Issue 50.13: an S2S request whose query is complete is answered as Singular answers it,
    /// whatever its JSON body; the entry and the metrics keep the finding on the body.
    @Test func aBodySingularIgnoresIsAnsweredFromTheQueryAndFoundInTheEntry() throws {
        let mock = try InProcessServer()
        let answer = mock.send(
            .post, "/api/v1/launch?a=K&p=iOS&i=app&idfv=J-1", headers: ["Content-Type": "application/json"],
            body: #"{"n":"x"}"#)
        #expect(answer.text == #"{"status":"ok"}"#)
        let entry = try #require(mock.entries.last)
        #expect(entry["device"] == "J-1")
        #expect(entry["issues"]?.arrayValue?.compactMap { $0["code"]?.stringValue } == ["unsupported_body"])
        #expect(mock.metrics.contains(#"skan_mock_findings_total{code="unsupported_body"} 1"#))
    }
}
