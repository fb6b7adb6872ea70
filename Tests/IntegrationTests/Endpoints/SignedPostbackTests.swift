#if SKAN_MOCK_TLS
    import Foundation
    import SKANDomain
    import SKANMock
    import SKANTLS
    import Testing

    /// With --https, AdAttributionKit postbacks' JWS is signed with the local CA's key, and the
    /// signature checks out against the CA the server serves (issue 29.9).
    @Suite("Signed AdAttributionKit postbacks over real sockets")
    struct SignedPostbackTests {
        @Test func theJWSVerifiesWithTheServedCA() throws {
            let folder = NSTemporaryDirectory() + "skan-jws-\(UUID().uuidString)"
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let mock = try TestSKANMock(configure: { options in
                options.https = HTTPSOptions(port: 0, stateDirectory: folder)
            })
            #expect(
                try mock.get(
                    "/api/v2/conversion_value",
                    [
                        ("a", "K"), ("i", "com.x"), ("p", "iOS"), ("idfv", "JWS"), ("n", "__SESSION__"),
                        ("skan_first_call_to_skadnetwork_timestamp", String(TestSKANMock.start - 3 * 86_400))
                    ]
                ).status == 200)
            let answer = try mock.admin("/__admin/devices/JWS/postbacks?tier=3&framework=aak")
            let p0 = try #require(answer["skan4"]?[0]?["postbacks"]?[0])
            let jws = try #require(p0["apple"]?["jws-string"]?.stringValue)
            let parts = jws.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            #expect(parts.count == 3 && p0["jws"]?["reason"] == .null)
            let pem = try mock.client.get(mock.url("/__admin/ca.pem"))
            let ca = try #require(try Certificate.chain(pem: pem.body).first)
            #expect(p0["jws"]?["header"]?["kid"]?.stringValue?.hasPrefix("skan-mock-ca-") == true)
            let signature = try #require(Self.base64URL(parts[2]))
            #expect(ES256.verify(signature, of: Array((parts[0] + "." + parts[1]).utf8), by: ca))
        }

        static func base64URL(_ text: String) -> [UInt8]? {
            var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            while standard.utf8.count % 4 != 0 { standard += "=" }
            return Data(base64Encoded: standard).map { [UInt8]($0) }
        }
    }
#endif
