import Testing

@testable import SKANDomain

/// The Info.plist attribution rules, each with a passing and a failing case: the fixtures in
/// both formats (Tests/Fixtures/Plist), then one rule at a time on values built here.
@Suite struct InfoPlistCheckTests {
    private typealias V = PropertyListValue

    private func dict(_ entries: KeyValuePairs<String, V>) -> V {
        .dictionary(entries.map { PropertyListEntry($0.key, $0.value) })
    }

    /// `code@keyPath` of every finding, in order.
    private func findings(_ plist: V, severity: InfoPlistFinding.Severity? = nil) -> [String] {
        InfoPlistCheck(plist).findings.filter { severity == nil || $0.severity == severity }.map {
            "\($0.code)@\($0.keyPath)"
        }
    }

    @Test func theGoodFixtureHasNoFindingAndSaysWhereCopiesGo() throws {
        for name in ["good.xml.plist", "good.binary.plist", "Example.app/Info.plist"] {
            let check = InfoPlistCheck(try PropertyList.read(try PropertyListTests.fixture(name)))
            #expect(check.findings == [])
            #expect(
                check.copies.map(\.url) == [
                    "https://example.com/.well-known/skadnetwork/report-attribution/",
                    "https://example.com/.well-known/private-click-measurement/report-attribution/",
                    "https://example.com/.well-known/appattribution/report-attribution/"
                ])
            #expect(check.keys.first == "SKAdNetworkItems")
        }
    }

    @Test func theBadFixtureBreaksEveryRuleOnce() throws {
        let expected = [
            "skadnetwork_identifier_case@SKAdNetworkItems[0].SKAdNetworkIdentifier",
            "skadnetwork_identifier_suffix@SKAdNetworkItems[1].SKAdNetworkIdentifier",
            "skadnetwork_identifier_duplicate@SKAdNetworkItems[3].SKAdNetworkIdentifier",
            "key_case@SKAdNetworkItems[4].SkAdNetworkIdentifier",
            "skadnetwork_item_type@SKAdNetworkItems[5]",
            "endpoint_path@NSAdvertisingAttributionReportEndpoint",
            "endpoint_scheme@AdAttributionKit.AttributionCopyEndpoint",
            "endpoint_port@AdAttributionKit.AttributionCopyEndpoint",
            "opt_in_type@EligibleForAdAttributionKitOverlappingConversions",
            "adattributionkit_unknown_key@AdAttributionKit.OptInForReengagementPostbackCopies",
            "window_range@AdAttributionKitConfigurations.AttributionWindows.global.install.view",
            "ignore_in_global@AdAttributionKitConfigurations.AttributionWindows.global.install.ignoreInteractionType",
            "window_range@AdAttributionKitConfigurations.AttributionWindows.test.adattributionkit.install.click",
            "ignore_value@AdAttributionKitConfigurations.AttributionWindows.test.adattributionkit.install.ignoreInteractionType",
            "cooldown_range@AdAttributionKitConfigurations.AttributionCooldown.install-cooldown-hours",
            "cooldown_type@AdAttributionKitConfigurations.AttributionCooldown.re-engagement-cooldown-hours"
        ]
        for name in ["bad.xml.plist", "bad.binary.plist"] {
            let plist = try PropertyList.read(try PropertyListTests.fixture(name))
            #expect(findings(plist) == expected)
            let check = InfoPlistCheck(plist)
            #expect(check.copies == [])
            #expect(check.findings.allSatisfy { $0.reference.hasPrefix("https://developer.apple.com/") })
            #expect(check.findings.first?.fix == "cstr6suwn9.skadnetwork")
            #expect(check.findings[5].fix == "https://example.com")
            #expect(check.findings[8].fix == "<true/>")
            #expect(check.findings[9].fix == "EligibleForAdAttributionKitReengagementPostbackCopies")
            #expect(check.findings[10].fix == "7")
        }
    }

    @Test func skadNetworkItems() {
        let good = dict([
            "SKAdNetworkItems": .array([dict(["SKAdNetworkIdentifier": .string("cstr6suwn9.skadnetwork")])])
        ])
        #expect(findings(good) == [])
        #expect(findings(dict(["SKAdNetworkItems": .string("x")])) == ["skadnetwork_items_type@SKAdNetworkItems"])
        #expect(
            findings(dict(["SKAdNetworkItems": .array([dict(["Other": .bool(true)])])]))
                == ["skadnetwork_identifier_missing@SKAdNetworkItems[0]"])
        #expect(
            findings(dict(["SKAdNetworkItems": .array([dict(["SKAdNetworkIdentifier": .integer(3)])])]))
                == ["skadnetwork_identifier_type@SKAdNetworkItems[0].SKAdNetworkIdentifier"])
        #expect(
            findings(
                dict(["SKAdNetworkItems": .array([dict(["SKAdNetworkIdentifier": .string(" cstr6suwn9.skadnetwork")])])]
                ))
                == ["skadnetwork_identifier_whitespace@SKAdNetworkItems[0].SKAdNetworkIdentifier"])
        // Duplicates differing only in case are the same network.
        let twice = dict([
            "SKAdNetworkItems": .array([
                dict(["SKAdNetworkIdentifier": .string("cstr6suwn9.skadnetwork")]),
                dict(["SKAdNetworkIdentifier": .string("CSTR6SUWN9.skadnetwork")])
            ])
        ])
        #expect(
            findings(twice) == [
                "skadnetwork_identifier_case@SKAdNetworkItems[1].SKAdNetworkIdentifier",
                "skadnetwork_identifier_duplicate@SKAdNetworkItems[1].SKAdNetworkIdentifier"
            ])
        #expect(findings(dict(["SkAdNetworkItems": .array([])])) == ["key_case@SkAdNetworkItems"])
    }

    @Test func endpoints() {
        func endpoint(_ text: String) -> [String] {
            findings(dict(["NSAdvertisingAttributionReportEndpoint": .string(text)]))
        }
        let key = "@NSAdvertisingAttributionReportEndpoint"
        #expect(endpoint("https://example.com") == [])
        #expect(endpoint("https://example.com/") == [])
        #expect(endpoint("https://Example.COM") == [])
        #expect(endpoint("https://example.com/postbacks") == ["endpoint_path" + key])
        #expect(endpoint("https://example.com?a=1") == ["endpoint_query" + key])
        #expect(endpoint("https://example.com:8443") == ["endpoint_port" + key])
        #expect(endpoint("https://user@example.com") == ["endpoint_extra" + key])
        #expect(endpoint("http://example.com") == ["endpoint_scheme" + key])
        #expect(endpoint("example.com") == ["endpoint_not_url" + key])
        #expect(endpoint(" https://example.com") == ["endpoint_whitespace" + key])
        #expect(endpoint("https://203.0.113.9") == ["endpoint_address" + key])
        #expect(endpoint("https://api.example.com") == ["endpoint_subdomain" + key])
        #expect(endpoint("https://example.co.uk") == [])
        #expect(
            findings(dict(["NSAdvertisingAttributionReportEndpoint": .bool(true)])) == ["endpoint_type" + key])
        // A subdomain: a note, and the copies go to the registrable domain.
        let sub = InfoPlistCheck(dict(["NSAdvertisingAttributionReportEndpoint": .string("https://api.example.com")]))
        #expect(sub.errorCount == 0)
        #expect(sub.copies.first?.url == "https://example.com/.well-known/skadnetwork/report-attribution/")
    }

    /// A QA build pointing at skan-mock's HTTPS listener is said to be so, and is no error.
    @Test func aLocalEndpointIsANote() {
        for host in [
            "https://192.168.1.20", "https://10.0.0.2", "https://127.0.0.1", "https://[::1]", "https://mac.local",
            "https://localhost", "https://172.20.1.1"
        ] {
            let check = InfoPlistCheck(dict(["AttributionCopyEndpoint": .string(host)]))
            #expect(check.findings.map(\.code) == ["endpoint_local"], "\(host)")
            #expect(check.findings.first?.severity == .note)
            #expect(check.copies.first?.url == host + "/.well-known/appattribution/report-attribution/")
        }
        #expect(
            InfoPlistCheck(dict(["AttributionCopyEndpoint": .string("https://172.32.1.1")])).findings.map(\.code) == [
                "endpoint_address"
            ])
    }

    @Test func adAttributionKitCopyEndpointAndOptIns() {
        let nested = dict([
            "AdAttributionKit": dict([
                "AttributionCopyEndpoint": .string("https://example.com"),
                "EligibleForAdAttributionKitReengagementPostbackCopies": .bool(true)
            ]),
            "EligibleForAdAttributionKitOverlappingConversions": .bool(false)
        ])
        #expect(findings(nested) == [])
        // Apple's key page lists AttributionCopyEndpoint among the top-level keys: read there too.
        #expect(findings(dict(["AttributionCopyEndpoint": .string("https://example.com")])) == [])
        #expect(
            findings(
                dict([
                    "AdAttributionKit": dict(["AttributionCopyEndpoint": .string("https://example.com")]),
                    "AttributionCopyEndpoint": .string("https://other.com")
                ])) == ["copy_endpoint_twice@AttributionCopyEndpoint"])
        #expect(
            findings(dict(["AdAttributionKit": .string("https://example.com")])) == [
                "adattributionkit_type@AdAttributionKit"
            ])
        #expect(
            findings(dict(["EligibleForAdAttributionKitReengagementPostbackCopies": .bool(true)]))
                == ["opt_in_without_endpoint@EligibleForAdAttributionKitReengagementPostbackCopies"])
        #expect(
            findings(dict(["EligibleForAdAttributionKitOverlappingConversions": .integer(1)]))
                == ["opt_in_type@EligibleForAdAttributionKitOverlappingConversions"])
        #expect(
            findings(dict(["AdAttributionKit": dict(["PostbackCopyURL": .string("https://example.com")])]))
                == ["adattributionkit_unknown_key@AdAttributionKit.PostbackCopyURL"])
    }

    @Test func attributionWindowsAndCooldowns() {
        func rules(_ value: V) -> [String] { findings(dict(["AdAttributionKitConfigurations": value])) }
        let prefix = "AdAttributionKitConfigurations."
        let windows = dict([
            "AttributionWindows": dict([
                "global": dict(["install": dict(["click": .integer(30), "view": .real(1)])]),
                "x.adattributionkit": dict([
                    "install": dict(["click": .integer(1), "ignoreInteractionType": .string("click")])
                ])
            ]),
            "AttributionCooldown": dict([
                "install-cooldown-hours": .integer(0), "re-engagement-cooldown-hours": .integer(720)
            ])
        ])
        #expect(rules(windows) == [])
        #expect(rules(.array([])) == ["configurations_type@AdAttributionKitConfigurations"])
        #expect(
            rules(dict(["AttributionWindow": dict([:])])) == [
                "configurations_unknown_key@" + prefix + "AttributionWindow"
            ])
        let path = prefix + "AttributionWindows.global."
        #expect(
            rules(dict(["AttributionWindows": dict(["global": dict(["reengagement": dict([:])])])]))
                == ["windows_unknown_key@" + path + "reengagement"])
        #expect(
            rules(dict(["AttributionWindows": dict(["global": dict(["install": dict(["click": .integer(0)])])])]))
                == ["window_range@" + path + "install.click"])
        #expect(
            rules(dict(["AttributionWindows": dict(["global": dict(["install": dict(["view": .real(2.5)])])])]))
                == ["window_type@" + path + "install.view"])
        #expect(
            rules(dict(["AttributionWindows": dict(["global": dict(["install": dict(["views": .integer(2)])])])]))
                == ["windows_unknown_key@" + path + "install.views"])
        #expect(
            rules(dict(["AttributionWindows": dict(["Global": dict(["install": dict([:])])])]))
                == ["key_case@" + prefix + "AttributionWindows.Global"])
        let cooldown = prefix + "AttributionCooldown."
        #expect(
            rules(dict(["AttributionCooldown": dict(["install-cooldown-hours": .integer(-1)])]))
                == ["cooldown_range@" + cooldown + "install-cooldown-hours"])
        #expect(
            rules(dict(["AttributionCooldown": dict(["reengagement-cooldown-hours": .integer(6)])]))
                == ["cooldown_spelling@" + cooldown + "reengagement-cooldown-hours"])
        #expect(
            rules(dict(["AttributionCooldown": dict(["cooldown": .integer(6)])]))
                == ["cooldown_unknown_key@" + cooldown + "cooldown"])
    }

    @Test func aFileThatIsNoInfoPlist() {
        #expect(findings(.array([])) == ["root_not_dictionary@"])
        #expect(findings(dict(["CFBundleIdentifier": .string("x")])) == ["no_attribution_keys@"])
        #expect(InfoPlistCheck(dict([:])).errorCount == 0)
    }
}
