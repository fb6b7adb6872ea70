/// A postback in AdAttributionKit's format (iOS 17.4+): the same windows, delays, locks and tiers as
/// SKAN 4, but the attribution travels in a JWS (`jws-string`) whose payload names the fields
/// differently and has no `version`; the values ride outside it.
public enum AdAttributionKitPostback {
    /// The App Store's marketplace, named from tier 1 on.
    public static let marketplace = "com.apple.AppStore"

    /// The outer object an ad network receives, and the JWS spelt out for people: its header, its
    /// payload, and the signature or why there is none.
    public static func render(
        _ postback: PostbackSimulator.Postback, device: String, signer: PostbackSigning
    ) -> (apple: JSONValue, jws: JSONValue) {
        let header: JSONValue = .object([JSONMember("kid", .string(signer.keyID)), JSONMember("alg", "ES256")])
        let payload = self.payload(postback, device: device)
        let input =
            base64URL(JSONWriter.serialize(header)) + "."
            + base64URL(JSONWriter.serialize(payload))
        let signature: String?
        let reason: String?
        switch signer.sign(Array(input.utf8)) {
        case .success(let bytes):
            signature = base64URL(bytes)
            reason = nil
        case .failure(let failure):
            signature = nil
            reason = failure.reason
        }
        var outer: [JSONMember] = [JSONMember("jws-string", .string(input + "." + (signature ?? "")))]
        if let fine = postback.fine { outer.append(JSONMember("conversion-value", .int(fine))) }
        if let coarse = postback.coarse {
            outer.append(JSONMember("coarse-conversion-value", .string(CoarseValue.name(coarse))))
        }
        outer.append(JSONMember("ad-interaction-type", "click"))
        if let country = postback.countryCode { outer.append(JSONMember("country-code", .string(country))) }
        let jws: JSONValue = .object([
            JSONMember("header", header), JSONMember("payload", payload),
            JSONMember("signature", signature.map { .string($0) } ?? .null),
            JSONMember("reason", reason.map { .string($0) } ?? .null)
        ])
        return (.object(outer), jws)
    }

    /// The JWS payload: `marketplace-identifier` from tier 1, `publisher-item-identifier` in the
    /// winning tier-3 first postback only.
    public static func payload(_ postback: PostbackSimulator.Postback, device: String) -> JSONValue {
        var members: [JSONMember] = [
            JSONMember("advertised-item-identifier", .int(PostbackSimulator.appID)),
            JSONMember("ad-network-identifier", .string(PostbackSimulator.adNetworkID)),
            JSONMember("conversion-type", "download")
        ]
        if postback.tier >= 1 { members.append(JSONMember("marketplace-identifier", .string(marketplace))) }
        members += [
            JSONMember("impression-type", "app-impression"),
            JSONMember("postback-sequence-index", .int(Int64(postback.index))),
            JSONMember("source-identifier", .string(PostbackSimulator.sourceIdentifier(postback))),
            JSONMember("did-win", .bool(postback.didWin)),
            JSONMember(
                "postback-identifier",
                .string(PostbackTransactionID.make(device: device, postback: postback, framework: .aak).uppercased()))
        ]
        if PostbackSimulator.carriesSourceApp(postback) {
            members.append(JSONMember("publisher-item-identifier", .int(PostbackSimulator.sourceApp(postback))))
        }
        return .object(members)
    }

    /// base64url without padding (RFC 7515 §2).
    public static func base64URL(_ bytes: [UInt8]) -> String {
        var text = ""
        for c in Base64.encode(bytes) {
            switch c {
            case "+": text.append("-")
            case "/": text.append("_")
            case "=": break
            default: text.append(c)
            }
        }
        return text
    }
}
