import Testing

@testable import SKANDomain

/// What `--upstream` calls a difference: only what a client would apply (ok or error, value,
/// coarse value, lock), never key order, spacing or an error's wording.
@Suite("Upstream comparison")
struct UpstreamComparisonTests {
    private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// Byte-for-byte the same answer is no difference; the same bytes that are not Singular's
    /// shape still are one, as they are when only the upstream sends them.
    @Test func theSameBytesAgreeOnlyWhenTheyAreSingularsShape() {
        let answer = bytes(#"{"status":"ok","conversion_value":10,"skan_updated_coarse_value":1}"#)
        #expect(UpstreamComparison.finding(model: (200, answer), upstream: (200, answer)) == nil)
        #expect(UpstreamComparison.finding(model: (200, answer), upstream: (500, answer)) != nil)
        let html = bytes("<html>Bad Gateway</html>")
        let garbage = UpstreamComparison.finding(model: (502, html), upstream: (502, html))
        #expect(garbage?.code == .differsFromUpstream)
        #expect(garbage?.message.contains("not Singular's shape") == true)
    }

    @Test func theSameAnswerInAnotherShapeIsTheSame() {
        let model = (
            200,
            bytes(
                #"{"status":"ok","conversion_value":3,"skan_updated_coarse_value":1,"skan_updated_lock_window_value":false}"#
            )
        )
        let upstream = (
            200,
            bytes(
                #"{ "skan_updated_lock_window_value": false, "conversion_value": 3, "status": "ok", "skan_updated_coarse_value": 1 }"#
            )
        )
        #expect(UpstreamComparison.finding(model: model, upstream: upstream) == nil)
        let errors = UpstreamComparison.finding(
            model: (200, bytes(#"{"status":"error","reason":"a"}"#)),
            upstream: (200, bytes(#"{"status":"error","reason":"Got error from server"}"#)))
        #expect(errors == nil)
    }

    @Test func eachKindOfDifferenceSaysBothAnswers() {
        let model = (
            200,
            bytes(
                #"{"status":"ok","conversion_value":3,"skan_updated_coarse_value":1,"skan_updated_lock_window_value":false}"#
            )
        )
        let cases: [(String, String)] = [
            (
                #"{"status":"ok","conversion_value":4,"skan_updated_coarse_value":1,"skan_updated_lock_window_value":false}"#,
                "ok, value 4, coarse 1, lock false"
            ),
            (
                #"{"status":"ok","conversion_value":3,"skan_updated_coarse_value":2,"skan_updated_lock_window_value":false}"#,
                "ok, value 3, coarse 2, lock false"
            ),
            (
                #"{"status":"ok","conversion_value":3,"skan_updated_coarse_value":1,"skan_updated_lock_window_value":true}"#,
                "ok, value 3, coarse 1, lock true"
            ),
            (#"{"status":"error","reason":"x"}"#, "error"),
            (#"{"status":"ok"}"#, "ok, no value")
        ]
        for (body, said) in cases {
            let finding = UpstreamComparison.finding(model: model, upstream: (200, bytes(body)))
            #expect(finding?.code == .differsFromUpstream)
            #expect(
                finding?.message
                    == "the model answered ok, value 3, coarse 1, lock false where the upstream answered \(said)")
        }
    }

    @Test func anHTTPErrorOrAnotherShapeIsADifference() {
        let model = (200, bytes(#"{"conversion_value":1,"status":"ok"}"#))
        #expect(
            UpstreamComparison.finding(model: model, upstream: (503, bytes(#"{"status":"ok","conversion_value":1}"#)))?
                .message
                == "the model answered ok, value 1 where the upstream answered error")
        let html = UpstreamComparison.finding(model: model, upstream: (502, bytes("<html>Bad Gateway</html>")))
        #expect(
            html?.message.hasPrefix(
                "the upstream answered HTTP 502 with a body that is not Singular's shape (<html>Bad Gateway</html>)")
                == true)
    }
}
