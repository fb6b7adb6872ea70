import Foundation
import SKANDomain
import Testing

@testable import SKANReport

#if canImport(FoundationXML)
    import FoundationXML
#endif

@Suite struct JournalReportTests {
    static let journal = """
        {"id":1,"method":"GET","path":"/api/v2/conversion_value","endpoint":"skan4","device":"D1","window":"p0","issues":[],"response":{"status":200,"body":"{\\"status\\":\\"ok\\",\\"conversion_value\\":1}"}}
        {"id":2,"method":"GET","path":"/api/v2/conversion_value","endpoint":"skan4","device":"D1","window":"p1","issues":[{"param":"p0_coarse","code":"coarse_value_out_of_range","message":"9 is outside 0...2"}],"response":{"status":200,"body":"{\\"status\\":\\"ok\\",\\"conversion_value\\":1}"}}
        not json at all
        {"id":3,"method":"GET","path":"/api/v1/evt","endpoint":"event","device":null,"window":null,"issues":[{"param":"a","code":"missing_parameter","message":"missing argument: a"}],"response":{"status":200,"body":"{\\"status\\":\\"error\\"}"}}

        [1,2]
        {"id":4,"method":"GET","path":"/api/v2/conversion_value","endpoint":"skan4","device":"D1","window":"p0","issues":[],"response":{"status":200,"body":"{\\"status\\":\\"ok\\",\\"conversion_value\\":2}"}}
        """

    @Test func summarisesPerDeviceAndListsUnreadableLinesByNumber() {
        let report = JournalReport(jsonLines: Array(Self.journal.utf8))
        #expect(report.requests == 4)
        #expect(report.findingCount == 2)
        #expect(report.devices.map(\.device) == ["D1", "(none)"])
        let d1 = report.devices[0]
        #expect(d1.requests == 3)
        #expect(d1.windows == ["p0", "p1"])
        #expect(d1.values == [1, 2])
        #expect(d1.findingsByCode.map(\.code) == ["coarse_value_out_of_range"])
        #expect(d1.findings.first?.requestId == 2)
        #expect(report.unreadableLines.map(\.line) == [3, 6])
        #expect(report.hasProblems)
        #expect(
            report.text.contains(
                "device D1: 3 requests, windows p0,p1, values 1,2, findings: coarse_value_out_of_range x1"))
        #expect(
            report.text.contains(
                "#2 GET /api/v2/conversion_value: p0_coarse: coarse_value_out_of_range: 9 is outside 0...2"))
        #expect(report.text.contains("line 3: not JSON"))
    }

    @Test func jsonShape() {
        let report = JournalReport(jsonLines: Array(Self.journal.utf8))
        let json = report.json
        #expect(
            json.objectValue?.map(\.key) == [
                "requests", "findings", "devices", "unreadable_lines", "received_postbacks"
            ])
        #expect(
            json["devices"]?[0]?.objectValue?.map(\.key) == [
                "device", "requests", "windows", "values", "findings_by_code", "findings"
            ])
        #expect(
            json["devices"]?[0]?["findings"]?[0] == [
                "id": 2, "method": "GET", "path": "/api/v2/conversion_value", "param": "p0_coarse",
                "code": "coarse_value_out_of_range", "message": "9 is outside 0...2"
            ])
        #expect(json["unreadable_lines"]?[0]?["line"] == 3)
    }

    @Test func emptyJournalHasNoProblems() {
        let report = JournalReport(jsonLines: [])
        #expect(report.hasProblems == false)
        #expect(report.text == "0 requests from 0 devices, 0 findings")
    }

    @Test func escapesMarkupQuotesAndControlCharacters() {
        #expect(JUnitReport.escape(#"a<b & "c" 'd' >"#) == "a&lt;b &amp; &quot;c&quot; &apos;d&apos; &gt;")
        #expect(JUnitReport.escape("x\ny\tz\r") == "x&#10;y&#9;z&#13;")
        #expect(JUnitReport.escape("bell\u{7}nul\u{0}") == "bell\\u{7}nul\\u{0}")
        #expect(JUnitReport.escape("café ✓") == "café ✓")
    }

    /// The XML parses, and a hostile device name and message come back as they were written.
    @Test func junitIsWellFormedWithATestcasePerDeviceAndAFailurePerFinding() throws {
        var report = JournalReport()
        report.devices = [
            .init(
                device: #"<dev & "1">"#, requests: 2, windows: ["p0"], values: [1],
                findings: [
                    .init(
                        requestId: 7, method: "GET", path: "/api/v2/conversion_value?x=<&y>", param: "p0_coarse",
                        code: "coarse_value_out_of_range", message: "9 'is' <outside> \u{1}0...2")
                ]),
            .init(device: "clean", requests: 1)
        ]
        report.unreadableLines = [.init(line: 3, reason: "not JSON")]
        let xml = JUnitReport.xml(report)
        let collector = XMLCollector()
        let parser = XMLParser(data: Data(xml.utf8))
        parser.delegate = collector
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")\n\(xml)")
        #expect(collector.testcases == [#"<dev & "1">"#, "clean", "journal lines"])
        #expect(collector.failures.count == 2)
        #expect(collector.failures[0].type == "coarse_value_out_of_range")
        #expect(collector.failures[0].message == "p0_coarse: 9 'is' <outside> \\u{1}0...2")
        #expect(collector.failures[0].text.contains("request #7 GET /api/v2/conversion_value?x=<&y>"))
        #expect(xml.contains(#"tests="3" failures="2""#))
    }
}

private final class XMLCollector: NSObject, XMLParserDelegate {
    var testcases: [String] = []
    var failures: [(type: String, message: String, text: String)] = []
    private var inFailure = false

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        if name == "testcase" { testcases.append(attributes["name"] ?? "") }
        if name == "failure", attributes["type"] != "unreadable_line" {
            failures.append((attributes["type"] ?? "", attributes["message"] ?? "", ""))
            inFailure = true
        } else if name == "failure" {
            failures.append((attributes["type"] ?? "", attributes["message"] ?? "", ""))
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if inFailure, !failures.isEmpty { failures[failures.count - 1].text += string }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if name == "failure" { inFailure = false }
    }
}
