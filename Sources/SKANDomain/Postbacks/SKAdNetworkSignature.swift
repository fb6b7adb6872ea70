/// A SKAdNetwork postback's `attribution-signature`: ECDSA P-256 with SHA-256 over the postback's
/// fields in the version's order, joined by U+2063 (INVISIBLE SEPARATOR), in base64 of its DER form,
/// as Apple's "Verifying an install-validation postback" (4.0) and "Combining parameters for
/// SKAdNetwork 3 postbacks" (3.0) pages say. A parser that follows those pages then checks ours with
/// skan-mock's local key instead of Apple's. Pure: the signer does the cryptography.
public enum SKAdNetworkSignature {
    /// The fields signed, in order, per version; `source-app-id` (or `source-domain`) only when the
    /// postback has it. Conversion values and `country-code` are never signed.
    static let fieldOrder: [String: [String]] = [
        "4.0": [
            "version", "ad-network-id", "source-identifier", "app-id", "transaction-id", "redownload",
            "source-app-id", "source-domain", "fidelity-type", "did-win", "postback-sequence-index"
        ],
        "3.0": [
            "version", "ad-network-id", "campaign-id", "app-id", "transaction-id", "redownload", "source-app-id",
            "fidelity-type", "did-win"
        ]
    ]

    static let optionalFields: Set<String> = ["source-app-id", "source-domain"]

    /// The UTF-8 text that is signed, or why there is none (a version with no known order, a field
    /// missing or not a string, integer or boolean).
    public static func signedText(_ postback: JSONValue) -> Result<String, PostbackSigningFailure> {
        guard let version = postback["version"]?.stringValue, let order = fieldOrder[version] else {
            return .failure(PostbackSigningFailure("version is not 3.0 or 4.0, whose field orders skan-mock knows"))
        }
        var values: [String] = []
        for name in order {
            guard let value = postback[name] else {
                if optionalFields.contains(name) { continue }
                return .failure(PostbackSigningFailure("\(name) is missing"))
            }
            switch value {
            case .string(let text): values.append(text)
            case .bool(let flag): values.append(flag ? "true" : "false")
            default:
                guard let number = value.intValue else {
                    return .failure(PostbackSigningFailure("\(name) is not a string, an integer or a boolean"))
                }
                values.append(String(number))
            }
        }
        return .success(values.joined(separator: "\u{2063}"))
    }

    /// The postback with its `attribution-signature` (last, as in Apple's examples) when `signer`
    /// signs, and what was signed with the signature or the reason there is none, for people.
    public static func sign(_ postback: JSONValue, signer: PostbackSigning) -> (apple: JSONValue, signature: JSONValue)
    {
        let text: String
        switch signedText(postback) {
        case .success(let signed): text = signed
        case .failure(let failure):
            return (
                postback, .object([JSONMember("signed_fields", .null), JSONMember("reason", .string(failure.reason))])
            )
        }
        var members = postback.objectValue ?? []
        var reason: JSONValue = .null
        switch signer.sign(Array(text.utf8)) {
        case .success(let raw):
            if let der = der(raw) {
                members.append(JSONMember("attribution-signature", .string(Base64.encode(der))))
            } else {
                reason = "the signer gave no 64-byte r and s"
            }
        case .failure(let failure): reason = .string(failure.reason)
        }
        return (
            .object(members),
            .object([JSONMember("signed_fields", .string(text)), JSONMember("reason", reason)])
        )
    }

    /// An ECDSA signature as r and s of 32 bytes each (JWS's form) in DER, `SEQUENCE { INTEGER r,
    /// INTEGER s }`, the form Apple's signature and `openssl dgst -verify` use; nil for another length.
    public static func der(_ raw: [UInt8]) -> [UInt8]? {
        guard raw.count == 64 else { return nil }
        func integer(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
            var value = Array(bytes.drop { $0 == 0 })
            if value.isEmpty { value = [0] }
            if value[0] & 0x80 != 0 { value.insert(0, at: 0) }
            return [0x02, UInt8(value.count)] + value
        }
        let body = integer(raw[0..<32]) + integer(raw[32..<64])
        return [0x30, UInt8(body.count)] + body
    }

    /// The 64-byte r and s of a DER signature; nil when it is not one.
    public static func raw(_ der: [UInt8]) -> [UInt8]? {
        guard der.count >= 8, der[0] == 0x30, Int(der[1]) == der.count - 2 else { return nil }
        var index = 2
        var parts: [[UInt8]] = []
        for _ in 0..<2 {
            guard index + 2 <= der.count, der[index] == 0x02 else { return nil }
            let length = Int(der[index + 1])
            guard length >= 1, index + 2 + length <= der.count else { return nil }
            var value = Array(der[(index + 2)..<(index + 2 + length)])
            while value.count > 32, value.first == 0 { value.removeFirst() }
            guard value.count <= 32 else { return nil }
            parts.append([UInt8](repeating: 0, count: 32 - value.count) + value)
            index += 2 + length
        }
        return index == der.count ? parts[0] + parts[1] : nil
    }
}
