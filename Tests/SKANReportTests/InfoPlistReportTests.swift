import SKANDomain
import SKANReport
import Testing

/// `skan-mock check Info.plist`'s report in its three forms, from a check made here: the text a
/// person reads, the JSON a script reads, and JUnit XML (a testcase per group of keys, a failure
/// per error, notes and destinations in `<system-out>`).
@Suite struct InfoPlistReportTests {
    private let report = InfoPlistReport(
        file: "Info.plist", format: .xml,
        check: InfoPlistCheck(
            .dictionary([
                PropertyListEntry(
                    "SKAdNetworkItems",
                    .array([.dictionary([PropertyListEntry("SKAdNetworkIdentifier", .string("ABC.skadnetwork"))])])),
                PropertyListEntry("NSAdvertisingAttributionReportEndpoint", .string("https://10.0.0.5"))
            ])))

    @Test func text() {
        let text = report.text
        #expect(
            text == """
                Info.plist: XML property list, attribution keys: SKAdNetworkItems, NSAdvertisingAttributionReportEndpoint
                  error SKAdNetworkItems[0].SKAdNetworkIdentifier: "ABC.skadnetwork" has upper case; ad network IDs are case-sensitive and in lower case, so this network's installs are not attributed [skadnetwork_identifier_case]
                         write instead: abc.skadnetwork
                         see https://developer.apple.com/documentation/bundleresources/information-property-list/skadnetworkitems
                  note  NSAdvertisingAttributionReportEndpoint: "10.0.0.5" is a local or private host: a QA build pointing its copies at skan-mock's HTTPS listener (serve --https), which takes them at /.well-known/skadnetwork/report-attribution/; a release build names the production domain [endpoint_local]
                         see https://developer.apple.com/documentation/bundleresources/information-property-list/nsadvertisingattributionreportendpoint
                postback copies will be posted to:
                  SKAdNetwork install-validation postback copies (NSAdvertisingAttributionReportEndpoint): POST https://10.0.0.5/.well-known/skadnetwork/report-attribution/
                  Private Click Measurement attribution reports (NSAdvertisingAttributionReportEndpoint): POST https://10.0.0.5/.well-known/private-click-measurement/report-attribution/
                findings: 1 error, 1 note
                """)
        #expect(report.hasProblems)
    }

    @Test func json() {
        let json = report.json
        #expect(json["errors"] == 1)
        #expect(json["findings"]?[1]?["severity"] == "note")
        #expect(json["findings"]?[0]?["fix"] == "abc.skadnetwork")
        #expect(json["copies"]?[0]?["url"] == "https://10.0.0.5/.well-known/skadnetwork/report-attribution/")
    }

    @Test func junit() {
        let xml = report.junit(suiteName: "ci")
        #expect(xml.contains(#"<testsuite name="ci" tests="5" failures="1" errors="0" skipped="0">"#))
        #expect(xml.contains(#"<testcase classname="ci.info_plist" name="AdAttributionKitConfigurations"/>"#))
        #expect(xml.contains(#"<failure type="skadnetwork_identifier_case""#))
        #expect(xml.contains("<system-out>note  NSAdvertisingAttributionReportEndpoint: "))
        #expect(
            xml.contains(
                "SKAdNetwork install-validation postback copies: POST https://10.0.0.5/.well-known/skadnetwork/report-attribution/"
            ))
    }
}
