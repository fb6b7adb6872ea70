/// Checks an ECDSA P-256 SHA-256 signature against a public key. The domain has no cryptography:
/// the application supplies OpenSSL's (SKANTLS) where TLS is built in, or none.
public protocol SignatureVerifier: Sendable {
    /// Whether `der` (an ECDSA-Sig-Value) is the signature of `message` by `publicKey` (a DER
    /// SubjectPublicKeyInfo, as Apple publishes its keys in base64).
    func verifyP256(der: [UInt8], of message: [UInt8], publicKey: [UInt8]) -> Bool
}

/// A public key a postback may be signed with: Apple's, or skan-mock's own local CA key.
public struct PostbackKey: Sendable, Equatable {
    /// AdAttributionKit's `kid` for it (`apple-cas-identifier/0`, `skan-mock-ca-...`).
    public var id: String
    /// Who holds it, for people: "Apple (production)".
    public var owner: String
    /// DER SubjectPublicKeyInfo.
    public var publicKey: [UInt8]

    public init(id: String, owner: String, publicKey: [UInt8]) {
        self.id = id
        self.owner = owner
        self.publicKey = publicKey
    }
}

/// Whether a received postback's signature checks out, and why or why not.
public struct PostbackVerdict: Sendable, Equatable {
    public var verified: Bool
    /// The key that verified it, or the one that should have.
    public var key: String?
    public var reason: String
    /// A signature that does not verify with the key it names: a finding. An unknown key or no
    /// signature at all is only "unverified".
    public var badSignature: Bool

    public init(verified: Bool, key: String?, reason: String, badSignature: Bool = false) {
        self.verified = verified
        self.key = key
        self.reason = reason
        self.badSignature = badSignature
    }

    public var json: JSONValue {
        [
            "verified": .bool(verified), "key": key.map { .string($0) } ?? .null, "reason": .string(reason),
            "bad_signature": .bool(badSignature)
        ]
    }
}

/// Verifies received postbacks as Apple's pages tell an ad network to: SKAdNetwork's
/// `attribution-signature` over the version's fields, AdAttributionKit's JWS by its `kid`; with
/// Apple's published keys (`AppleAttributionKeys`) and skan-mock's local CA key when it has one.
public struct PostbackVerifier: Sendable {
    let verifier: (any SignatureVerifier)?
    let unavailable: String
    public let keys: [PostbackKey]

    public init(verifier: any SignatureVerifier, keys: [PostbackKey]) {
        self.verifier = verifier
        self.keys = keys
        unavailable = ""
    }

    /// No verification in this build (no OpenSSL): every postback is unverified, saying why.
    public init(unavailable reason: String) {
        verifier = nil
        keys = []
        unavailable = reason
    }

    public func verify(_ postback: ReceivedPostback) -> PostbackVerdict {
        switch postback.signed {
        case .unsigned(let reason):
            return PostbackVerdict(verified: false, key: nil, reason: reason)
        case .fields(let text, let der):
            guard let verifier else { return PostbackVerdict(verified: false, key: nil, reason: unavailable) }
            // SKAdNetwork names no key: Apple's production key signs 3.0 and 4.0; try each known.
            if let key = keys.first(where: { verifier.verifyP256(der: der, of: text, publicKey: $0.publicKey) }) {
                return PostbackVerdict(
                    verified: true, key: key.id, reason: "attribution-signature verifies with \(key.owner)'s key")
            }
            return PostbackVerdict(
                verified: false, key: nil,
                reason:
                    "attribution-signature does not verify with any known key (\(keys.map(\.owner).joined(separator: ", "))) over the \(postback.version ?? "") fields",
                badSignature: true)
        case .jws(let kid, let alg, let input, let signature):
            guard let verifier else { return PostbackVerdict(verified: false, key: kid, reason: unavailable) }
            guard let key = keys.first(where: { $0.id == kid }) else {
                return PostbackVerdict(verified: false, key: kid, reason: "unverified: unknown key \(kid)")
            }
            guard alg == "ES256" else {
                return PostbackVerdict(
                    verified: false, key: kid, reason: "the JWS header's alg is \(alg), not ES256", badSignature: true)
            }
            guard let der = SKAdNetworkSignature.der(signature),
                verifier.verifyP256(der: der, of: input, publicKey: key.publicKey)
            else {
                return PostbackVerdict(
                    verified: false, key: kid,
                    reason: "the JWS signature does not verify with \(key.owner)'s key \(kid)",
                    badSignature: true)
            }
            return PostbackVerdict(verified: true, key: kid, reason: "the JWS verifies with \(key.owner)'s key \(kid)")
        }
    }
}
