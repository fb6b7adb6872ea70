import Testing

@testable import SKANDomain

/// AdAttributionKit's postback (issue 29.9): the outer object, the JWS's header and payload, and
/// the signature from the signer the application gives, or none and why.
@Suite("AdAttributionKit postback")
struct AdAttributionKitPostbackTests {
    struct FixedSigner: PostbackSigner {
        var keyID: String { "test-key" }
        func sign(_ input: [UInt8]) -> Result<[UInt8], PostbackSigningFailure> {
            .success([UInt8](repeating: 0xFB, count: 64))
        }
    }

    let first: Int64 = 1_789_000_000

    func postbacks(tier: Int, didWin: Bool = true) -> [PostbackSimulator.Postback] {
        var s = WindowedDeviceState()
        s.firstCallSeconds = first
        s.lastReturned = [
            ModelAnswer(fine: 10, coarse: 1, lock: false), ModelAnswer(fine: nil, coarse: 2, lock: false),
            ModelAnswer(fine: nil, coarse: 0, lock: false)
        ]
        var options = PostbackQuery()
        options.framework = .aak
        options.didWin = didWin
        return PostbackSimulator.skan4(s, tier: tier, now: (first + 40 * 86_400) * 1000, options: options)
    }

    @Test func payloadFieldsByTier() {
        let tier3 = AdAttributionKitPostback.payload(postbacks(tier: 3)[0], device: "D")
        #expect(
            tier3.objectValue?.map(\.key) == [
                "advertised-item-identifier", "ad-network-identifier", "conversion-type", "marketplace-identifier",
                "impression-type", "postback-sequence-index", "source-identifier", "did-win", "postback-identifier",
                "publisher-item-identifier"
            ])
        #expect(
            tier3["version"] == nil && tier3["conversion-type"] == "download" && tier3["source-identifier"] == "1234")
        let tier0 = AdAttributionKitPostback.payload(postbacks(tier: 0)[0], device: "D")
        #expect(tier0["marketplace-identifier"] == nil && tier0["publisher-item-identifier"] == nil)
        let second = AdAttributionKitPostback.payload(postbacks(tier: 3)[1], device: "D")
        #expect(second["publisher-item-identifier"] == nil && second["source-identifier"] == "12")
        let lost = AdAttributionKitPostback.payload(postbacks(tier: 3, didWin: false)[0], device: "D")
        #expect(lost["did-win"] == false && lost["publisher-item-identifier"] == nil)
    }

    @Test func outerObjectCarriesTheValuesTheTierAllows() {
        let signing = PostbackSigning(signer: FixedSigner())
        let (fine, _) = AdAttributionKitPostback.render(postbacks(tier: 2)[0], device: "D", signer: signing)
        #expect(fine["conversion-value"] == 10 && fine["coarse-conversion-value"] == nil)
        #expect(fine["ad-interaction-type"] != nil)
        let (coarse, _) = AdAttributionKitPostback.render(postbacks(tier: 1)[0], device: "D", signer: signing)
        #expect(coarse["conversion-value"] == nil && coarse["coarse-conversion-value"] == "medium")
        let (none, _) = AdAttributionKitPostback.render(postbacks(tier: 0)[0], device: "D", signer: signing)
        #expect(none["conversion-value"] == nil && none["coarse-conversion-value"] == nil)
    }

    @Test func theJWSIsHeaderPayloadAndSignature() throws {
        let (apple, jws) = AdAttributionKitPostback.render(
            postbacks(tier: 3)[0], device: "D", signer: PostbackSigning(signer: FixedSigner()))
        let parts = try #require(apple["jws-string"]?.stringValue).split(
            separator: ".", omittingEmptySubsequences: false)
        #expect(parts.count == 3)
        #expect(jws["header"] == ["kid": "test-key", "alg": "ES256"])
        // base64url: no padding, `-` and `_` for `+` and `/`.
        #expect(parts[2].count == 86 && !parts[2].contains("=") && !parts[2].contains("+") && parts[2].contains("-"))
        #expect(Self.decodeURL(String(parts[2])) == [UInt8](repeating: 0xFB, count: 64))
        #expect(jws["signature"]?.stringValue == String(parts[2]) && jws["reason"] == .null)
        let header = try JSONParser.parse(try #require(Self.decodeURL(String(parts[0]))))
        #expect(header == jws["header"])
        let payload = try JSONParser.parse(try #require(Self.decodeURL(String(parts[1]))))
        #expect(payload == jws["payload"])
    }

    @Test func withoutASignerTheJWSSaysWhy() {
        let (apple, jws) = AdAttributionKitPostback.render(
            postbacks(tier: 3)[0], device: "D", signer: PostbackSigning(unsigned: "no key"))
        #expect(jws["signature"] == .null && jws["reason"] == "no key")
        #expect(apple["jws-string"]?.stringValue?.hasSuffix(".") == true)
    }

    static func decodeURL(_ text: String) -> [UInt8]? {
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while standard.utf8.count % 4 != 0 { standard += "=" }
        return Base64.decode(standard)
    }
}
