/// A postback as a device (or any sender) POSTs it to `/.well-known/skadnetwork/report-attribution/`
/// or `/.well-known/appattribution/report-attribution/`, read once into what the receiver checks
/// and compares: the value, the window, `did-win`, and the bytes that were signed. A body that is
/// not a postback is refused with the reason the 400 names; anything Apple may leave out (values
/// below tier 2, `did-win` before SKAN 3) is optional, and a bad signature is the verifier's
/// finding, never a refusal (Apple retries anything but a 200).
public struct ReceivedPostback: Sendable, Equatable {
    public var framework: PostbackQuery.Framework
    /// The object as received.
    public var json: JSONValue
    /// SKAdNetwork's `version`; nil for AdAttributionKit, which has none.
    public var version: String?
    /// `postback-sequence-index` (0, 1, 2); 0 where there is none (SKAN 3's one postback).
    public var index: Int
    public var didWin: Bool?
    /// `conversion-value`: tiers 2 and 3's first postback.
    public var fine: Int64?
    /// `coarse-conversion-value`: `low`, `medium` or `high`.
    public var coarse: String?
    /// `transaction-id` (SKAdNetwork) or `postback-identifier` (AdAttributionKit).
    public var transactionID: String
    /// `source-identifier`, or SKAN 3's `campaign-id` as text.
    public var sourceIdentifier: String?
    /// AdAttributionKit's JWS header and payload, decoded.
    public var jwsHeader: JSONValue?
    public var jwsPayload: JSONValue?
    public var signed: Signed

    /// SKAN 3's one postback (a `version` of 3.x): it has no window index nor tier.
    public var isSKAN3: Bool { version?.hasPrefix("3.") ?? false }

    /// The window it is for, as the journal and the console name it: `skan3`, else `p0`-`p2`.
    public var windowName: String { isSKAN3 ? "skan3" : "p\(index)" }

    /// What the signature covers, for the verifier.
    public enum Signed: Sendable, Equatable {
        /// SKAdNetwork: the fields joined by U+2063 in the version's order, and the DER signature
        /// (empty when `attribution-signature` is not base64).
        case fields(text: [UInt8], der: [UInt8])
        /// AdAttributionKit: the JWS's signing input (`header.payload`), its `kid` and `alg`, and
        /// r || s (empty when not base64url).
        case jws(kid: String, alg: String, input: [UInt8], signature: [UInt8])
        /// Nothing to check, and why.
        case unsigned(String)
    }

    /// The paths Apple posts to, with and without the trailing slash, and what each receives.
    public static let paths: [String: PostbackQuery.Framework] = [
        "/.well-known/skadnetwork/report-attribution/": .skan,
        "/.well-known/skadnetwork/report-attribution": .skan,
        "/.well-known/appattribution/report-attribution/": .aak,
        "/.well-known/appattribution/report-attribution": .aak
    ]

    /// The postback in `body`, or why it is not one.
    public static func parse(_ body: [UInt8], framework: PostbackQuery.Framework) -> Result<
        ReceivedPostback, PostbackRejection
    > {
        let json: JSONValue
        do {
            json = try JSONParser.parse(body)
        } catch {
            return .failure(
                PostbackRejection(
                    body.isEmpty ? "the body is empty: a postback is a JSON object" : "the body is not JSON: \(error)"))
        }
        return parse(json: json, framework: framework)
    }

    /// The postback in a parsed body (a journal line's `postback.body`, read again), or why it is not one.
    public static func parse(json: JSONValue, framework: PostbackQuery.Framework) -> Result<
        ReceivedPostback, PostbackRejection
    > {
        guard json.objectValue != nil else {
            return .failure(PostbackRejection("the body is a JSON \(json.typeName), not a postback object"))
        }
        do {
            switch framework {
            case .skan: return .success(try skan(json))
            case .aak: return .success(try aak(json))
            }
        } catch {
            return .failure(error)
        }
    }

    private static func skan(_ json: JSONValue) throws(PostbackRejection) -> ReceivedPostback {
        if json["jws-string"] != nil {
            throw PostbackRejection(
                "this is an AdAttributionKit postback (it has jws-string): post it to /.well-known/appattribution/report-attribution/"
            )
        }
        guard let version = try string(json, "version") else {
            throw PostbackRejection("version is missing: every SKAdNetwork postback since 2.0 has one")
        }
        guard try string(json, "ad-network-id") != nil else { throw PostbackRejection("ad-network-id is missing") }
        guard let transaction = try string(json, "transaction-id") else {
            throw PostbackRejection("transaction-id is missing")
        }
        let campaign = try integer(json, "campaign-id", 0...Int64.max)
        var postback = ReceivedPostback(
            framework: .skan, json: json, version: version,
            index: Int(try integer(json, "postback-sequence-index", 0...2) ?? 0), didWin: try bool(json, "did-win"),
            fine: try integer(json, "conversion-value", 0...63), coarse: try coarse(json),
            transactionID: transaction,
            sourceIdentifier: try string(json, "source-identifier") ?? campaign.map { String($0) },
            signed: .unsigned(""))
        switch SKAdNetworkSignature.signedText(json) {
        case .failure(let failure): postback.signed = .unsigned("unverified: \(failure.reason)")
        case .success(let text):
            guard let signature = try string(json, "attribution-signature") else {
                postback.signed = .unsigned("unverified: the postback has no attribution-signature")
                break
            }
            postback.signed = .fields(text: Array(text.utf8), der: Base64.decode(signature) ?? [])
        }
        return postback
    }

    private static func aak(_ json: JSONValue) throws(PostbackRejection) -> ReceivedPostback {
        guard let jws = try string(json, "jws-string") else {
            throw PostbackRejection(
                json["attribution-signature"] != nil || json["version"] != nil
                    ? "this is a SKAdNetwork postback (it has no jws-string): post it to /.well-known/skadnetwork/report-attribution/"
                    : "jws-string is missing: an AdAttributionKit postback carries its attribution in it")
        }
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            throw PostbackRejection("jws-string is not a compact JWS (header.payload.signature)")
        }
        guard let headerBytes = base64URL(parts[0]), let header = try? JSONParser.parse(headerBytes),
            header.objectValue != nil
        else { throw PostbackRejection("jws-string's header is not base64url of a JSON object") }
        guard let payloadBytes = base64URL(parts[1]), let payload = try? JSONParser.parse(payloadBytes),
            payload.objectValue != nil
        else { throw PostbackRejection("jws-string's payload is not base64url of a JSON object") }
        guard let identifier = try string(payload, "postback-identifier", in: "the JWS payload's ") else {
            throw PostbackRejection("the JWS payload has no postback-identifier")
        }
        let signed: Signed
        if let kid = header["kid"]?.stringValue {
            signed = .jws(
                kid: kid, alg: header["alg"]?.stringValue ?? "", input: Array("\(parts[0]).\(parts[1])".utf8),
                signature: base64URL(parts[2]) ?? [])
        } else {
            signed = .unsigned("unverified: the JWS header names no kid")
        }
        return ReceivedPostback(
            framework: .aak, json: json, version: nil,
            index: Int(try integer(payload, "postback-sequence-index", 0...2, in: "the JWS payload's ") ?? 0),
            didWin: try bool(payload, "did-win", in: "the JWS payload's "),
            fine: try integer(json, "conversion-value", 0...63), coarse: try coarse(json), transactionID: identifier,
            sourceIdentifier: try string(payload, "source-identifier", in: "the JWS payload's "), jwsHeader: header,
            jwsPayload: payload, signed: signed)
    }

    private static func string(_ json: JSONValue, _ name: String, in place: String = "") throws(PostbackRejection)
        -> String?
    {
        guard let value = json[name], !value.isNull else { return nil }
        guard let text = value.stringValue else {
            throw PostbackRejection("\(place)\(name) is \(value), not a string")
        }
        return text
    }

    private static func integer(
        _ json: JSONValue, _ name: String, _ range: ClosedRange<Int64>, in place: String = ""
    ) throws(PostbackRejection) -> Int64? {
        guard let value = json[name], !value.isNull else { return nil }
        guard let number = value.intValue, range.contains(number) else {
            throw PostbackRejection(
                "\(place)\(name) is \(value), not an integer from \(range.lowerBound)\(range.upperBound == Int64.max ? " up" : " to \(range.upperBound)")"
            )
        }
        return number
    }

    private static func bool(_ json: JSONValue, _ name: String, in place: String = "") throws(PostbackRejection)
        -> Bool?
    {
        guard let value = json[name], !value.isNull else { return nil }
        guard let flag = value.boolValue else {
            throw PostbackRejection("\(place)\(name) is \(value), not true or false")
        }
        return flag
    }

    private static func coarse(_ json: JSONValue) throws(PostbackRejection) -> String? {
        guard let name = try string(json, "coarse-conversion-value") else { return nil }
        guard CoarseValue.value(named: name) != nil else {
            throw PostbackRejection("coarse-conversion-value is \"\(name)\", not low, medium or high")
        }
        return name
    }

    /// The bytes of unpadded base64url (RFC 7515 §2), or nil.
    public static func base64URL(_ text: Substring) -> [UInt8]? {
        var standard = ""
        for c in text {
            switch c {
            case "-": standard.append("+")
            case "_": standard.append("/")
            case "+", "/", "=": return nil
            default: standard.append(c)
            }
        }
        while standard.utf8.count % 4 != 0 { standard.append("=") }
        return Base64.decode(standard)
    }
}

/// Why a body is not a postback: the 400's reason.
public struct PostbackRejection: Error, Sendable, Equatable {
    public var reason: String

    public init(_ reason: String) { self.reason = reason }
}
