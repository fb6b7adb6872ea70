import SKANDomain
import Testing

/// Issue 40.8-9: a received postback is read once into a typed value, or refused with the reason a
/// 400 names; its signature is judged by key, a bad one a finding and an unknown key only
/// "unverified"; the received postbacks are kept within a bound.
@Suite struct ReceivedPostbackTests {
    /// Apple's example AdAttributionKit postback (a development postback from developer settings),
    /// from https://developer.apple.com/documentation/adattributionkit/identifying-the-parameters-in-a-postback
    static let appleJWS =
        "eyJraWQiOiJhcHBsZS1kZXZlbG9wbWVudC1pZGVudGlmaWVyXC8xIiwiYWxnIjoiRVMyNTYifQ.eyJwb3N0YmFjay1pZGVudGlmaWVyIjoiODU1NDZFQjctRkQzOS00NEJDLTg5OTAtQzk4QTRBQzM2QTQ5IiwicHVibGlzaGVyLWl0ZW0taWRlbnRpZmllciI6MCwibWFya2V0cGxhY2UtaWRlbnRpZmllciI6ImNvbS5hcHBsZS5BcHBTdG9yZSIsImltcHJlc3Npb24tdHlwZSI6ImFwcC1pbXByZXNzaW9uIiwiYWQtbmV0d29yay1pZGVudGlmaWVyIjoiZGV2ZWxvcG1lbnQuYWRhdHRyaWJ1dGlvbmtpdCIsImRpZC13aW4iOnRydWUsInBvc3RiYWNrLXNlcXVlbmNlLWluZGV4IjowLCJjb252ZXJzaW9uLXR5cGUiOiJyZS1lbmdhZ2VtZW50Iiwic291cmNlLWlkZW50aWZpZXIiOiIxMjM0IiwiYWR2ZXJ0aXNlZC1pdGVtLWlkZW50aWZpZXIiOjEwNzM4MDI3NzU2fQ.bAdNwKd6OfHK9tofvjjua4X_JPcFTxXPQSspD9gZkinw97pY7R1aI-LSjl-oxZZF3_K2H5JK5TSEBee4_1U4oQ"
    static let appleAAK =
        #"{"jws-string":"\#(appleJWS)","conversion-value":24,"ad-interaction-type":"click","country-code":"US"}"#

    static let skan4 = #"""
        {"version":"4.0","ad-network-id":"example123.skadnetwork","source-identifier":"1234","app-id":123456789,
         "transaction-id":"6aafb7a5-0170-41b5-bbe4-fe71dedf1e31","redownload":false,"source-app-id":987654321,
         "fidelity-type":1,"did-win":true,"postback-sequence-index":0,"conversion-value":20,
         "attribution-signature":"MEUCIQD4Yv3Q=="}
        """#

    static func parse(_ text: String, _ framework: PostbackQuery.Framework) -> Result<
        ReceivedPostback, PostbackRejection
    > {
        ReceivedPostback.parse(Array(text.utf8), framework: framework)
    }

    @Test func aSKAdNetwork4PostbackIsReadOnce() throws {
        let p = try Self.parse(Self.skan4, .skan).get()
        #expect(p.version == "4.0" && p.index == 0 && p.fine == 20 && p.coarse == nil && p.didWin == true)
        #expect(p.transactionID == "6aafb7a5-0170-41b5-bbe4-fe71dedf1e31" && p.sourceIdentifier == "1234")
        guard case .fields(let text, _) = p.signed else {
            Issue.record("not signed: \(p.signed)")
            return
        }
        #expect(
            String(decoding: text, as: UTF8.self)
                == [
                    "4.0", "example123.skadnetwork", "1234", "123456789", "6aafb7a5-0170-41b5-bbe4-fe71dedf1e31",
                    "false", "987654321", "1", "true", "0"
                ].joined(separator: "\u{2063}"))
    }

    @Test func applesAdAttributionKitExampleIsRead() throws {
        let p = try Self.parse(Self.appleAAK, .aak).get()
        #expect(p.framework == .aak && p.fine == 24 && p.index == 0 && p.didWin == true)
        #expect(p.transactionID == "85546EB7-FD39-44BC-8990-C98A4AC36A49" && p.sourceIdentifier == "1234")
        guard case .jws(let kid, let alg, _, let signature) = p.signed else {
            Issue.record("not a JWS: \(p.signed)")
            return
        }
        // The header escapes its slash (`\/`): read as JSON, not as text.
        #expect(kid == "apple-development-identifier/1" && alg == "ES256" && signature.count == 64)
    }

    @Test(arguments: [
        ("", PostbackQuery.Framework.skan, "the body is empty: a postback is a JSON object"),
        ("version=4.0", .skan, "the body is not JSON: invalid JSON at byte 0"),
        ("[1]", .skan, "the body is a JSON array, not a postback object"),
        (#"{"ad-network-id":"x","transaction-id":"t"}"#, .skan, "version is missing"),
        (#"{"version":4,"ad-network-id":"x","transaction-id":"t"}"#, .skan, "version is 4, not a string"),
        (#"{"version":"4.0","ad-network-id":"x"}"#, .skan, "transaction-id is missing"),
        (
            #"{"version":"4.0","ad-network-id":"x","transaction-id":"t","conversion-value":64}"#, .skan,
            "conversion-value is 64, not an integer from 0 to 63"
        ),
        (
            #"{"version":"4.0","ad-network-id":"x","transaction-id":"t","coarse-conversion-value":"big"}"#, .skan,
            #"coarse-conversion-value is "big", not low, medium or high"#
        ),
        (
            #"{"version":"4.0","ad-network-id":"x","transaction-id":"t","did-win":"yes"}"#, .skan,
            #"did-win is "yes", not true or false"#
        ),
        (#"{"jws-string":"a.b.c"}"#, .skan, "this is an AdAttributionKit postback"),
        (#"{"version":"4.0","attribution-signature":"x"}"#, .aak, "this is a SKAdNetwork postback"),
        (#"{"conversion-value":1}"#, .aak, "jws-string is missing"),
        (#"{"jws-string":"a.b"}"#, .aak, "jws-string is not a compact JWS"),
        (#"{"jws-string":"!!.e30.AA"}"#, .aak, "jws-string's header is not base64url of a JSON object"),
        (#"{"jws-string":"e30.W10.AA"}"#, .aak, "jws-string's payload is not base64url of a JSON object"),
        (#"{"jws-string":"e30.e30.AA"}"#, .aak, "the JWS payload has no postback-identifier")
    ])
    func aBodyThatIsNotAPostbackIsRefusedNamingWhy(body: String, framework: PostbackQuery.Framework, reason: String) {
        switch Self.parse(body, framework) {
        case .success(let p): Issue.record("accepted \(p)")
        case .failure(let rejection): #expect(rejection.reason.hasPrefix(reason), "\(rejection.reason)")
        }
    }

    /// Answers true for one key's bytes only, so the verdict's logic is tested without OpenSSL.
    struct FakeVerifier: SignatureVerifier {
        let good: [UInt8]
        func verifyP256(der: [UInt8], of message: [UInt8], publicKey: [UInt8]) -> Bool { publicKey == good }
    }

    @Test func theVerdictNamesTheKeyAndABadSignatureIsAFinding() throws {
        let apple = try Self.parse(Self.appleAAK, .aak).get()
        let keys = AppleAttributionKeys.all
        let verified = PostbackVerifier(verifier: FakeVerifier(good: keys[2].publicKey), keys: keys).verify(apple)
        #expect(verified.verified && verified.key == "apple-development-identifier/1" && !verified.badSignature)
        let bad = PostbackVerifier(verifier: FakeVerifier(good: []), keys: keys).verify(apple)
        #expect(!bad.verified && bad.badSignature)
        #expect(
            bad.reason
                == "the JWS signature does not verify with Apple (development, developer settings)'s key apple-development-identifier/1"
        )
        let unknown = PostbackVerifier(verifier: FakeVerifier(good: []), keys: [keys[0]]).verify(apple)
        #expect(!unknown.verified && !unknown.badSignature)
        #expect(unknown.reason == "unverified: unknown key apple-development-identifier/1")
        let skan = try Self.parse(Self.skan4, .skan).get()
        let byApple = PostbackVerifier(verifier: FakeVerifier(good: keys[0].publicKey), keys: keys).verify(skan)
        #expect(byApple.verified && byApple.key == "apple-cas-identifier/0")
        #expect(PostbackVerifier(verifier: FakeVerifier(good: []), keys: keys).verify(skan).badSignature)
        let none = PostbackVerifier(unavailable: "unverified: no TLS").verify(skan)
        #expect(!none.verified && none.reason == "unverified: no TLS" && !none.badSignature)
    }

    @Test func aPostbackWithoutASignatureIsUnverifiedNotBad() throws {
        let unsigned = try Self.parse(#"{"version":"4.0","ad-network-id":"x","transaction-id":"t"}"#, .skan).get()
        let verdict = PostbackVerifier(verifier: FakeVerifier(good: []), keys: AppleAttributionKeys.all)
            .verify(unsigned)
        #expect(!verdict.verified && !verdict.badSignature)
        #expect(verdict.reason == "unverified: source-identifier is missing")
    }

    @Test func theStoreKeepsTheNewestWithinItsBounds() throws {
        let p = try Self.parse(Self.skan4, .skan).get()
        let verdict = PostbackVerdict(verified: false, key: nil, reason: "")
        let body = Array(Self.skan4.utf8)
        func entry(_ id: Int64, device: String? = nil) -> ReceivedPostbackStore.Entry {
            .init(
                id: id, timeMilliseconds: 0, path: "/p", remote: "", device: device, postback: p, verdict: verdict,
                bytes: 0)
        }
        let store = ReceivedPostbackStore(capacity: 3, capacityBytes: body.count * 10)
        for id in Int64(1)...5 { store.add(entry(id, device: id % 2 == 0 ? "A" : nil), body: body) }
        #expect(store.entries().map(\.id) == [3, 4, 5] && store.dropped == 2)
        #expect(store.entries(device: "A").map(\.id) == [4])
        #expect(store.entries().allSatisfy { $0.postback == p && $0.bytes == body.count })
        let padded = body + [UInt8](repeating: 0x20, count: body.count * 9 - 1)
        store.add(entry(6), body: padded)
        #expect(store.entries().map(\.id) == [6] && store.dropped == 5)
        // Larger than the bound: the newest is still kept.
        store.add(entry(7), body: body + [UInt8](repeating: 0x20, count: body.count * 20))
        #expect(store.entries().map(\.id) == [7])
        store.clear()
        #expect(store.count == 0 && store.bytesHeld == 0)
    }

    /// What the store holds is the body's bytes, not the parsed tree: a body padded with a large
    /// array is held at its size (issue 47.5: 48 MiB per tenant for 4 MiB of bodies).
    @Test func theStoreHoldsTheBytesItCounts() throws {
        var padded = Self.skan4
        padded.removeLast()
        padded += ", \"padding\": [" + Array(repeating: "0", count: 10_000).joined(separator: ",") + "]}"
        let bytes = Array(padded.utf8)
        let p = try Self.parse(padded, .skan).get()
        let store = ReceivedPostbackStore(capacity: 10, capacityBytes: 1 << 20)
        let verdict = PostbackVerdict(verified: false, key: nil, reason: "")
        store.add(
            .init(
                id: 1, timeMilliseconds: 0, path: "/p", remote: "", device: nil, postback: p, verdict: verdict, bytes: 0
            ),
            body: bytes)
        #expect(store.bytesHeld == bytes.count)
        #expect(store.entries().first?.postback == p)
    }
}
