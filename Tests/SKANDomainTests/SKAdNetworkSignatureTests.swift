import Testing

@testable import SKANDomain

/// Issue 40.6: what a SKAdNetwork postback's `attribution-signature` signs, in Apple's order per
/// version, and the DER form it travels in.
@Suite("SKAdNetwork attribution-signature")
struct SKAdNetworkSignatureTests {
    struct FixedSigner: PostbackSigner {
        var keyID: String { "test-key" }
        func sign(_ input: [UInt8]) -> Result<[UInt8], PostbackSigningFailure> {
            .success([0x00, 0x80] + [UInt8](repeating: 0x11, count: 30) + [UInt8](repeating: 0x7F, count: 32))
        }
    }

    let sep = "\u{2063}"

    /// Apple's 4.0 example (a web ad's first postback), with `source-domain` in `source-app-id`'s place.
    @Test func version4OrderWithSourceDomain() throws {
        let postback = try JSONParser.parse(
            #"{"version":"4.0","ad-network-id":"com.example","source-identifier":"5239","app-id":525463029,"transaction-id":"6aafb7a5-0170-41b5-bbe4-fe71dedf1e30","redownload":false,"source-domain":"example.com","fidelity-type":1,"did-win":true,"conversion-value":63,"postback-sequence-index":0,"country-code":"US"}"#
        )
        #expect(
            try SKAdNetworkSignature.signedText(postback).get()
                == [
                    "4.0", "com.example", "5239", "525463029", "6aafb7a5-0170-41b5-bbe4-fe71dedf1e30", "false",
                    "example.com", "1", "true", "0"
                ].joined(separator: sep))
    }

    @Test func version3OrderAndWithoutSourceApp() throws {
        let winning = try JSONParser.parse(
            #"{"version":"3.0","ad-network-id":"n.skadnetwork","campaign-id":42,"app-id":1,"transaction-id":"t","redownload":true,"source-app-id":7,"fidelity-type":1,"did-win":true,"conversion-value":5}"#
        )
        #expect(
            try SKAdNetworkSignature.signedText(winning).get()
                == ["3.0", "n.skadnetwork", "42", "1", "t", "true", "7", "1", "true"].joined(separator: sep))
        let lost = try JSONParser.parse(
            #"{"version":"3.0","ad-network-id":"n.skadnetwork","campaign-id":42,"app-id":1,"transaction-id":"t","redownload":false,"fidelity-type":1,"did-win":false}"#
        )
        #expect(
            try SKAdNetworkSignature.signedText(lost).get()
                == ["3.0", "n.skadnetwork", "42", "1", "t", "false", "1", "false"].joined(separator: sep))
        #expect((try? SKAdNetworkSignature.signedText(.object([JSONMember("version", "2.2")])).get()) == nil)
    }

    @Test func derRoundTrip() throws {
        let raw = [0x00, 0x80] + [UInt8](repeating: 0x11, count: 30) + [UInt8](repeating: 0x7F, count: 32)
        let der = try #require(SKAdNetworkSignature.der(raw))
        // r lost its leading zero and gained one for its high bit; s is as it was.
        #expect(Array(der.prefix(4)) == [0x30, UInt8(der.count - 2), 0x02, 32])
        #expect(SKAdNetworkSignature.raw(der) == raw)
        #expect(SKAdNetworkSignature.der([1, 2, 3]) == nil && SKAdNetworkSignature.raw([0x30, 0]) == nil)
    }

    @Test func signedLastOrSaysWhyNot() throws {
        var state = WindowedDeviceState()
        state.firstCallSeconds = T0
        let postback = PostbackSimulator.skan4(state, tier: 3, now: (T0 + 40 * day) * 1000)[0]
        let unsigned = PostbackSimulator.appleJSON(postback, device: "D")
        let (apple, signature) = SKAdNetworkSignature.sign(unsigned, signer: PostbackSigning(signer: FixedSigner()))
        #expect(apple.objectValue?.last?.key == "attribution-signature" && signature["reason"] == .null)
        let text = try #require(apple["attribution-signature"]?.stringValue)
        let der = try #require(Base64.decode(text))
        // Hoisted: Swift 6.0's #expect cannot take a `try` inside an operand.
        let expectedRaw = try FixedSigner().sign([]).get()
        let expectedText = try SKAdNetworkSignature.signedText(unsigned).get()
        #expect(SKAdNetworkSignature.raw(der) == expectedRaw)
        #expect(signature["signed_fields"]?.stringValue == expectedText)
        let (bare, why) = SKAdNetworkSignature.sign(unsigned, signer: PostbackSigning(unsigned: "no key"))
        #expect(bare == unsigned && why["reason"] == "no key")
    }
}
