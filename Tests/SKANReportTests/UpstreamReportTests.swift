import SKANDomain
import Testing

@testable import SKANReport

/// `skan-mock compare` and the report's `upstream`, from journal lines: groups per endpoint and
/// window, the first examples per kind, shadow and proxy entries, unreadable lines.
@Suite("Upstream report")
struct UpstreamReportTests {
    private let lines = """
        {"id":1,"endpoint":"skan4","window":"p0","device":"A","issues":[],"response":{"status":200,"body":"{\\"status\\":\\"ok\\",\\"conversion_value\\":1}"},"upstream":{"status":200,"body":"{\\"status\\":\\"ok\\",\\"conversion_value\\":1}","duration_us":900}}
        {"id":2,"endpoint":"skan4","window":"p0","device":"B","issues":[{"param":"upstream","code":"differs_from_upstream","message":"the model answered ok, value 1 where the upstream answered ok, value 0"}],"response":{"status":200,"body":"M"},"upstream":{"status":200,"body":"U","duration_us":800}}
        {"id":3,"endpoint":"skan3","window":null,"device":"C","issues":[{"param":"upstream","code":"upstream_timeout","message":"the upstream did not answer within 5.0 s"}],"response":{"status":200,"body":"M3"},"upstream":{"error":"timeout","reason":"x","duration_us":5000000}}
        {"id":4,"endpoint":"skan4","window":"p1","device":"D","issues":[{"param":"upstream","code":"differs_from_upstream","message":"m"}],"response":{"status":200,"body":"U4"},"model":{"status":200,"body":"M4"},"upstream":{"status":200,"body":"U4","duration_us":700}}
        {"id":5,"endpoint":"skan4","window":"p0","device":"E","issues":[],"response":{"status":200,"body":"x"}}
        not json

        """

    @Test func countsPerEndpointAndWindowWithExamples() {
        let report = UpstreamReport(jsonLines: Array(lines.utf8))
        #expect(
            report.groups == [
                .init(endpoint: "skan4", window: "p0", matched: 1, differed: 1, failed: 0),
                .init(endpoint: "skan3", window: "-", matched: 0, differed: 0, failed: 1),
                .init(endpoint: "skan4", window: "p1", matched: 0, differed: 1, failed: 0)
            ])
        #expect(
            (report.compared, report.matched, report.differed, report.failed, report.notCompared) == (4, 1, 2, 1, 1))
        #expect(report.unreadableLines.map(\.line) == [6])
        #expect(report.hasDifferences)
        // Shadow: the model's answer is the response; proxy: it is `model`, the response is the upstream's.
        #expect(report.examples.map(\.model) == ["M", "M3", "M4"])
        #expect(report.examples.map(\.upstream) == ["U", "timeout", "U4"])
        #expect(
            report.text.hasPrefix(
                "4 answers compared with the upstream: 1 matched, 2 differed, 1 without an upstream answer (1 not compared)\n"
            ))
        #expect(report.text.contains("skan4 p0: 2 compared, 1 matched, 1 differed, 0 without an upstream answer"))
        #expect(
            report.text.contains(
                "  #2 B skan4 p0: the model answered ok, value 1 where the upstream answered ok, value 0\n    model:    M\n    upstream: U"
            ))
        #expect(report.json["groups"]?[0]?["compared"] == 2)
    }

    @Test func keepsOnlyTheFirstExamplesOfAKind() {
        var text = ""
        for id in 1...5 {
            text +=
                #"{"id":\#(id),"endpoint":"skan4","window":"p0","issues":[{"code":"differs_from_upstream","message":"m"}],"response":{"status":200,"body":"M"},"upstream":{"status":200,"body":"U","duration_us":1}}"#
                + "\n"
        }
        let report = UpstreamReport(jsonLines: Array(text.utf8))
        #expect(report.differed == 5)
        #expect(report.examples.compactMap(\.requestId) == [1, 2, 3])
        #expect(!UpstreamReport(jsonLines: []).hasDifferences)
    }

    /// Every way the upstream can fail, as the server journals it: none is a match, so
    /// `compare --fail-on-differences` fails. (`upstream_unusable` and `upstream_loop` used to be
    /// counted as matched: the report spelled the kinds it knew by hand.) A failure with no finding,
    /// or one this version does not know, still counts as a failure.
    @Test(
        arguments: [
            ("timeout", "upstream_timeout"), ("unreachable", "upstream_unreachable"), ("not_sent", "upstream_skipped"),
            ("unusable", "upstream_unusable"), ("loop", "upstream_loop"), ("unusable", nil),
            ("teapot", "upstream_teapot")
        ] as [(String, String?)])
    func everyUpstreamFailureIsAFailure(error: String, code: String?) {
        let issues = code.map { #"[{"param":"upstream","code":"\#($0)","message":"m"}]"# } ?? "[]"
        let line =
            #"{"id":1,"endpoint":"skan4","window":"p0","device":"F","issues":\#(issues),"response":{"status":200,"body":"M"},"upstream":{"error":"\#(error)","reason":"r","duration_us":1}}"#
        let report = UpstreamReport(jsonLines: Array((line + "\n").utf8))
        #expect((report.matched, report.failed) == (0, 1))
        #expect(report.hasDifferences)
        let kind = code ?? "upstream_unusable"
        #expect(report.examples.map(\.kind) == [kind])
        #expect(report.text.contains("\n\(kind):\n  #1 F skan4 p0"), "\(report.text)")
    }

    /// The kinds the report names are the server's finding codes, not a copy of them.
    @Test func theKindsAreTheServersFindingCodes() {
        #expect(
            Set(UpstreamReport.kinds)
                == Set(FindingCode.allCases.map(\.rawValue).filter { $0.contains("upstream") }))
    }
}
