#if SKAN_MOCK_TLS
    import Foundation
    @testable import SKANPhoneSetup
    import SKANTLS
    import Testing

    /// The bodies of `/__admin/ca.pem`, `/__admin/ca.mobileconfig` and `/__admin/phone`.
    @Suite("Phone set-up")
    struct PhoneSetupTests {
        static let folder = NSTemporaryDirectory() + "skan-phone-\(UUID().uuidString)"
        static let ca = try! LocalCA.loadOrCreate(in: folder).ca

        /// The profile is XML: a control character XML 1.0 forbids (in a certificate name, say) must
        /// not make it unreadable, so it is shown as text (issue 23).
        @Test func escapingKeepsTheProfileWellFormed() {
            #expect(HTMLEscaping.escape("CA \u{1}<x> & 'y'") == "CA \\u{1}&lt;x&gt; &amp; &#39;y&#39;")
            #expect(HTMLEscaping.escape("line\nnext\ttab") == "line\nnext\ttab")
        }

        @Test func caPEMIsTheTrustAnchor() throws {
            let setup = PhoneSetup(trustAnchor: Self.ca.certificate)
            let certificateFile = try String(contentsOfFile: Self.ca.certificatePath, encoding: .utf8)
            #expect(setup.caPEM == certificateFile)
            #expect(setup.caPEM.hasPrefix("-----BEGIN CERTIFICATE-----\n"))
        }

        @Test func mobileconfigIsARootProfileWithAStableUUID() throws {
            let profile = PhoneSetup(trustAnchor: Self.ca.certificate).mobileconfig
            let plist = try #require(
                try PropertyListSerialization.propertyList(from: Data(profile.utf8), format: nil) as? [String: Any])
            #expect(plist["PayloadType"] as? String == "Configuration")
            #expect(plist["PayloadVersion"] as? Int == 1)
            #expect((plist["PayloadIdentifier"] as? String)?.hasPrefix("skan-mock.ca.") == true)
            #expect(plist["PayloadDisplayName"] as? String == Self.ca.certificate.commonName)
            let uuid = try #require(plist["PayloadUUID"] as? String)
            #expect(UUID(uuidString: uuid) != nil)
            let payloads = try #require(plist["PayloadContent"] as? [[String: Any]])
            #expect(payloads.count == 1)
            #expect(payloads[0]["PayloadType"] as? String == "com.apple.security.root")
            #expect(payloads[0]["PayloadContent"] as? Data == Data(Self.ca.certificate.der))
            #expect(UUID(uuidString: payloads[0]["PayloadUUID"] as? String ?? "") != nil)
            #expect(payloads[0]["PayloadUUID"] as? String != uuid)

            // Same CA, same UUID (the phone replaces the profile); another CA, another UUID.
            let again = PhoneSetup(trustAnchor: try LocalCA.loadOrCreate(in: Self.folder).ca.certificate).mobileconfig
            #expect(again == profile)
            let other = try LocalCA.loadOrCreate(in: Self.folder + "-other").ca
            defer { try? FileManager.default.removeItem(atPath: Self.folder + "-other") }
            let otherPlist =
                try PropertyListSerialization.propertyList(
                    from: Data(PhoneSetup(trustAnchor: other.certificate).mobileconfig.utf8), format: nil)
                as? [String: Any]
            #expect(otherPlist?["PayloadUUID"] as? String != uuid)
            #expect(Mobileconfig.contentType == "application/x-apple-aspen-config")
        }

        @Test func pageShowsTheStepsAndTwoCodesFollowedByTheirText() throws {
            let html = PhoneSetup(trustAnchor: Self.ca.certificate)
                .page(
                    listeningHost: "0.0.0.0", httpPort: 8080, httpsPort: 8443,
                    machineAddresses: ["192.168.1.20", "fd00::2"])
            let profileURL = "http://192.168.1.20:8080/__admin/ca.mobileconfig"
            let httpsURL = "https://192.168.1.20:8443"
            #expect(html.contains("</svg><p><code>\(profileURL)</code></p>"))
            #expect(html.contains("</svg><p><code>\(httpsURL)</code></p>"))
            #expect(html.components(separatedBy: "<svg ").count == 3)
            #expect(html.contains("Certificate Trust Settings"))
            #expect(html.contains("Install"))
            #expect(html.contains(Self.ca.certificate.sha256Fingerprint))
            #expect(!html.contains("<script"))
            #expect(!html.contains("--host 0.0.0.0"))

            // Each code, redrawn from the page's SVG, reads back as the text printed under it.
            let svgs = html.matches(of: /<svg [^>]*>.*?<\/svg>/).map { String($0.output) }
            #expect(
                try svgs.map { try ZBarImage.decode(pgm: SVGBitmap(svg: $0, quietZone: 4).pgm()) } == [
                    [profileURL], [httpsURL]
                ])
        }

        @Test func loopbackHostIsToldToRestartOnAllInterfaces() {
            let input = PhonePage.Input(
                listeningHost: "127.0.0.1", httpPort: 8080, httpsPort: 8443, machineAddresses: ["10.0.0.5"],
                caName: "CA", caFingerprint: "AB")
            let html = PhonePage.html(input)
            #expect(html.contains("Restart it with <code>--host 0.0.0.0</code>"))
            #expect(input.httpsURL == "https://10.0.0.5:8443")
        }

        @Test func specificHostAndIPv6AreUsedAsGiven() {
            let v4 = PhonePage.Input(
                listeningHost: "192.168.7.7", httpPort: 1, httpsPort: 2, machineAddresses: ["10.0.0.5"], caName: "CA",
                caFingerprint: "AB")
            #expect(v4.profileURL == "http://192.168.7.7:1/__admin/ca.mobileconfig")
            let v6 = PhonePage.Input(
                listeningHost: "::", httpPort: 1, httpsPort: 2, machineAddresses: ["fd00::2"], caName: "CA",
                caFingerprint: "AB")
            #expect(v6.httpsURL == "https://[fd00::2]:2")
            let none = PhonePage.Input(
                listeningHost: "0.0.0.0", httpPort: 1, httpsPort: 2, machineAddresses: [], caName: "CA",
                caFingerprint: "AB")
            #expect(PhonePage.html(none).contains("no network address"))
        }

        @Test func everyInterpolatedValueIsEscaped() {
            let evil = "<img src=x onerror=alert(1)>"
            let input = PhonePage.Input(
                listeningHost: "127.0.0.1\"><b>", httpPort: 1, httpsPort: 2, machineAddresses: [evil], caName: evil,
                caFingerprint: evil)
            let html = PhonePage.html(input)
            #expect(!html.contains("<img"))
            #expect(!html.contains("<b>"))
            #expect(html.contains("&lt;img src=x onerror=alert(1)&gt;"))
        }
    }
#endif
