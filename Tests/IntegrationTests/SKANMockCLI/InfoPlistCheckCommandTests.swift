import Foundation
import SKANDomain
import Testing

/// `skan-mock check Info.plist` through the real executable: the fixtures Python's plistlib wrote
/// (Tests/Fixtures/Plist) in both formats and as an app bundle, told from a HAR by content; text,
/// `--json`, `--junit` and `--fail-on-findings`; a QA build's local endpoint as a note; and
/// broken property lists, each refused in one line naming the file and the reason.
@Suite("skan-mock check: Info.plist")
struct InfoPlistCheckCommandTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/Plist")

    private func fixture(_ name: String) -> String { Self.fixtures.appendingPathComponent(name).path }

    @Test func aGoodInfoPlistInBothFormatsAndAsABundle() throws {
        for name in ["good.xml.plist", "good.binary.plist", "Example.app"] {
            let run = try SKANMockExecutable.run(["check", fixture(name), "--fail-on-findings"])
            #expect(run.status == 0, "\(name): \(run.error)")
            #expect(run.error.isEmpty)
            let output = run.output
            #expect(output.contains("findings: 0 errors, 0 notes"))
            #expect(
                output.contains(
                    "AdAttributionKit postback copies (AdAttributionKit.AttributionCopyEndpoint): POST https://example.com/.well-known/appattribution/report-attribution/"
                ))
            #expect(output.contains("POST https://example.com/.well-known/skadnetwork/report-attribution/"))
        }
        let bundle = try SKANMockExecutable.run(["check", fixture("Example.app")])
        let firstLine = bundle.output.split(separator: "\n").first.map(String.init) ?? ""
        #expect(firstLine.hasPrefix(fixture("Example.app") + "/Info.plist: binary property list, attribution keys: "))
    }

    @Test func aBadInfoPlistFailsCIWithEveryFinding() throws {
        let bad = fixture("bad.binary.plist")
        let text = try SKANMockExecutable.run(["check", bad])
        #expect(text.status == 0)
        let output = text.output
        #expect(
            output.contains(
                "  error SKAdNetworkItems[0].SKAdNetworkIdentifier: \"CSTR6SUWN9.skadnetwork\" has upper case; ad network IDs are case-sensitive and in lower case, so this network's installs are not attributed [skadnetwork_identifier_case]\n         write instead: cstr6suwn9.skadnetwork\n         see https://developer.apple.com/documentation/bundleresources/information-property-list/skadnetworkitems"
            ))
        #expect(output.contains("findings: 16 errors, 0 notes"))

        let json = try SKANMockExecutable.run(["check", fixture("bad.xml.plist"), "--json"])
        let result = try JSONParser.parse(json.output)
        #expect(result["format"] == "xml")
        #expect(result["errors"] == 16)
        #expect(result["findings"]?[5]?["key_path"] == "NSAdvertisingAttributionReportEndpoint")
        #expect(result["findings"]?[5]?["code"] == "endpoint_path")
        #expect(result["findings"]?[5]?["fix"] == "https://example.com")
        #expect(result["copies"] == [])

        let dir = NSTemporaryDirectory() + "skan-plist-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let junit = dir + "/junit.xml"
        let failing = try SKANMockExecutable.run(["check", bad, "--junit", junit, "--fail-on-findings"])
        #expect(failing.status == 1)
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains(#"<testsuite name="skan-mock.check" tests="5" failures="5" errors="0" skipped="0">"#))
        #expect(xml.contains(#"<testcase classname="skan-mock.check.info_plist" name="SKAdNetworkItems">"#))
        #expect(
            xml.contains(
                #"<failure type="skadnetwork_identifier_case" message="SKAdNetworkItems[0].SKAdNetworkIdentifier: "#))
        #expect(xml.contains(#"<failure type="cooldown_range""#))
    }

    /// A QA build whose copies go to skan-mock's HTTPS listener: notes, which never fail a run.
    @Test func aQABuildPointingAtSkanMockIsSaidToBeSo() throws {
        let run = try SKANMockExecutable.run(["check", fixture("qa-build.binary.plist"), "--fail-on-findings"])
        #expect(run.status == 0)
        let output = run.output
        #expect(
            output.contains(
                "note  NSAdvertisingAttributionReportEndpoint: \"192.168.1.20\" is a local or private host: a QA build pointing its copies at skan-mock's HTTPS listener (serve --https)"
            ))
        #expect(output.contains("POST https://skan-mock.local/.well-known/appattribution/report-attribution/"))
        #expect(output.contains("findings: 0 errors, 2 notes"))
    }

    @Test func brokenPropertyListsAreRefusedInOneLine() throws {
        let cases = [
            (
                "broken-cycle.binary.plist",
                "binary property list: object 0 contains itself (a cycle of references); a property list is a tree"
            ),
            (
                "broken-offset.binary.plist",
                "binary property list: object 1's offset is 200, outside the objects (bytes 8 to 13)"
            ),
            ("broken.xml.plist", "XML property list: line 9: <dict> is closed by </array>")
        ]
        for (name, reason) in cases {
            let run = try SKANMockExecutable.run(["check", fixture(name)])
            #expect(run.status == 2)
            #expect(run.output.isEmpty)
            #expect(run.error == "skan-mock check: \(fixture(name)): \(reason)\n")
        }
        let cut = try SKANMockExecutable.run(["check", fixture("broken-truncated.binary.plist")])
        #expect(cut.status == 2)
        let cutError = cut.error
        #expect(
            cutError.hasPrefix("skan-mock check: \(fixture("broken-truncated.binary.plist")): binary property list: "))
        #expect(cutError.contains("cut short"))

        let dir = NSTemporaryDirectory() + "skan-plist-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir + "/Empty.app", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let empty = try SKANMockExecutable.run(["check", dir + "/Empty.app"])
        #expect(empty.status == 2)
        #expect(
            empty.error
                == "skan-mock check: \(dir)/Empty.app: a folder without an Info.plist (looked for \(dir)/Empty.app/Info.plist and \(dir)/Empty.app/Contents/Info.plist); give an app bundle, an Info.plist or a HAR capture\n"
        )
        // A file named *.plist that is no property list says so.
        try "{\"log\":{}}".write(toFile: dir + "/Info.plist", atomically: true, encoding: .utf8)
        let json = try SKANMockExecutable.run(["check", dir + "/Info.plist"])
        #expect(json.status == 2)
        let jsonError = json.error
        #expect(jsonError.contains("not a property list"))
        // --model is for a capture.
        let model = try SKANMockExecutable.run(["check", fixture("good.xml.plist"), "--model", "x.json"])
        #expect(model.status == 64)
    }

    /// The sample in docs/testing-release-builds.md is what the command prints for an app with
    /// those two mistakes, word for word.
    @Test func theDocumentedSampleIsTrue() throws {
        let page = try DocumentationPages.text("docs/testing-release-builds.md")
        let sample = try #require(
            DocumentationPages.block(after: "## 6. Check the build's Info.plist", language: "text", in: page))
        let dir = NSTemporaryDirectory() + "skan-plist-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir + "/MyApp.app", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let plist: [String: Any] = [
            "SKAdNetworkItems": [["SKAdNetworkIdentifier": "CSTR6SUWN9.skadnetwork"]],
            "NSAdvertisingAttributionReportEndpoint": "https://example.com/skan/postbacks"
        ]
        let data = try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
        try data.write(to: URL(fileURLWithPath: dir + "/MyApp.app/Info.plist"))
        let run = try SKANMockExecutable.run(["check", "MyApp.app"], directory: dir)
        #expect(run.status == 0)
        #expect(run.output == sample.trimmingCharacters(in: .newlines) + "\n")
    }
}
