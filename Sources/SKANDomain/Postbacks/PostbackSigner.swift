/// Signs an AdAttributionKit postback's JWS. The domain builds the header and payload and has no
/// crypto: the application supplies the signer (ES256 with skan-mock's local CA key where TLS is
/// built in), or none, and the JWS says it is unsigned.
public protocol PostbackSigner: Sendable {
    /// The JWS header's `kid`: which key signed it.
    var keyID: String { get }
    /// The ES256 signature of `input` (r then s, 32 bytes each), or why there is none.
    func sign(_ input: [UInt8]) -> Result<[UInt8], PostbackSigningFailure>
}

/// Why a JWS is not signed, for the `jws.reason` member.
public struct PostbackSigningFailure: Error, Sendable, Equatable {
    public var reason: String

    public init(_ reason: String) { self.reason = reason }
}

/// The signer to use, or why there is none: the JWS is then unsigned, and says why.
public struct PostbackSigning: Sendable {
    let signer: (any PostbackSigner)?
    let unsignedReason: String

    public init(signer: any PostbackSigner) {
        self.signer = signer
        unsignedReason = ""
    }

    public init(unsigned reason: String) {
        signer = nil
        unsignedReason = reason
    }

    var keyID: String { signer?.keyID ?? "unsigned" }

    func sign(_ input: [UInt8]) -> Result<[UInt8], PostbackSigningFailure> {
        guard let signer else { return .failure(PostbackSigningFailure(unsignedReason)) }
        return signer.sign(input)
    }
}
