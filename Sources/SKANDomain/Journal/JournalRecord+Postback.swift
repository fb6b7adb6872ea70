/// The journal's `postback` member: a postback the receiver took, typed (framework, version,
/// window index, value, source identifier), with the verifier's verdict, the comparison with the
/// prediction made when it arrived, and the body as received, so a journal file alone (`skan-mock
/// report`) can read the postback again and compare it with the prediction the way
/// `GET /__admin/postbacks/received` does, with the same code. Written and read here, under
/// `JournalRecord.Field` names.
extension JournalRecord {
    public struct Received: Sendable, Equatable {
        public var framework: PostbackQuery.Framework
        /// `transaction-id`, or AdAttributionKit's `postback-identifier`.
        public var transactionID: String
        /// SKAdNetwork's `version`; nil for AdAttributionKit (and lines older versions wrote).
        public var version: String?
        /// `source-identifier` (SKAN 3's `campaign-id`).
        public var sourceIdentifier: String?
        public var index: Int
        public var didWin: Bool?
        public var fine: Int64?
        /// `low`, `medium` or `high`.
        public var coarse: String?
        public var verdict: PostbackVerdict
        /// The comparison with the prediction as it was when the postback arrived; nil in lines
        /// older versions wrote.
        public var comparison: PredictionVerdict?
        /// The body as received (a JSON object); nil when it was over `maxPostbackBodyBytes`, or the
        /// line was written before bodies were kept.
        public var body: JSONValue?

        /// The postback read again from its body, as the receiver read it; nil without a body.
        public var postback: ReceivedPostback? {
            guard let body, case .success(let postback) = ReceivedPostback.parse(json: body, framework: framework)
            else { return nil }
            return postback
        }
    }

    /// The largest postback body a journal line keeps. Apple's are about 1 KiB (a JWS about 2);
    /// a bigger body is still received and summed up, its body left out.
    public static let maxPostbackBodyBytes = 16 << 10

    /// The `postback` member for `postback`, received in a body of `bodyBytes` bytes and compared
    /// with the prediction (`comparison`).
    public static func postbackMember(
        _ postback: ReceivedPostback, verdict: PostbackVerdict, comparison: PredictionVerdict, bodyBytes: Int
    ) -> JSONMember {
        typealias F = Field
        var members = postbackFields(postback) + judgement(verdict, comparison)
        if bodyBytes <= maxPostbackBodyBytes { members.append(JSONMember(F.body, postback.json)) }
        return JSONMember(F.postback, .object(members))
    }

    /// The signature's verdict (`verified`, `reason`, `key`, `bad_signature`) and the comparison
    /// with the prediction: the members a received postback's `postback` and a sent one's `sent`
    /// share after its fields.
    public static func judgement(_ verdict: PostbackVerdict, _ comparison: PredictionVerdict) -> [JSONMember] {
        typealias F = Field
        return [
            JSONMember(F.verified, .bool(verdict.verified)), JSONMember(F.reason, .string(verdict.reason)),
            JSONMember(F.key, verdict.key.map { .string($0) } ?? .null),
            JSONMember(F.badSignature, .bool(verdict.badSignature)), JSONMember(F.comparison, comparison.json)
        ]
    }

    /// What a postback says, typed, in the journal's names: the members a received postback's
    /// `postback` and a sent one's `sent` share.
    public static func postbackFields(_ postback: ReceivedPostback) -> [JSONMember] {
        typealias F = Field
        return [
            JSONMember(F.framework, .string(postback.framework.rawValue)),
            JSONMember(F.version, postback.version.map { .string($0) } ?? .null),
            JSONMember(F.transactionID, .string(postback.transactionID)),
            JSONMember(F.index, .int(Int64(postback.index))),
            JSONMember(F.didWin, postback.didWin.map { .bool($0) } ?? .null),
            JSONMember(F.fine, postback.fine.map { .int($0) } ?? .null),
            JSONMember(F.coarse, postback.coarse.map { .string($0) } ?? .null),
            JSONMember(F.sourceIdentifier, postback.sourceIdentifier.map { .string($0) } ?? .null)
        ]
    }

    /// Reads `postback`; nil when the line has none (every other endpoint, a refused postback).
    static func received(_ json: JSONValue) throws(JSONProblem) -> Received? {
        typealias F = Field
        guard let value = json[F.postback], !value.isNull else { return nil }
        let at = "$.postback"
        guard case .object = value else { throw typeProblem(at, "an object", value) }
        let name = try string(value, F.framework, at) ?? ""
        guard let framework = PostbackQuery.Framework(rawValue: name) else {
            throw JSONProblem(path: CheckedJSON.child(at, F.framework), reason: "not skan or aak: \(name)")
        }
        var didWin: Bool?
        if let flag = value[F.didWin], !flag.isNull {
            guard let bool = flag.boolValue else {
                throw typeProblem(CheckedJSON.child(at, F.didWin), "true or false", flag)
            }
            didWin = bool
        }
        var verified = false
        if let flag = value[F.verified], !flag.isNull {
            guard let bool = flag.boolValue else {
                throw typeProblem(CheckedJSON.child(at, F.verified), "true or false", flag)
            }
            verified = bool
        }
        let badSignature = value[F.badSignature]?.boolValue ?? false
        var body: JSONValue?
        if let given = value[F.body], !given.isNull {
            guard case .object = given else { throw typeProblem(CheckedJSON.child(at, F.body), "an object", given) }
            body = given
        }
        var comparison: PredictionVerdict?
        if let given = value[F.comparison], !given.isNull {
            comparison = try PredictionVerdict.read(given, at: CheckedJSON.child(at, F.comparison))
        }
        return Received(
            framework: framework, transactionID: try string(value, F.transactionID, at) ?? "",
            version: try string(value, F.version, at), sourceIdentifier: try string(value, F.sourceIdentifier, at),
            index: Int(try integer(value, F.index, at) ?? 0), didWin: didWin, fine: try integer(value, F.fine, at),
            coarse: try string(value, F.coarse, at),
            verdict: PostbackVerdict(
                verified: verified, key: try string(value, F.key, at), reason: try string(value, F.reason, at) ?? "",
                badSignature: badSignature),
            comparison: comparison, body: body)
    }
}
