import SKANDomain

#if SKAN_MOCK_TLS
    import SKANTLS

    /// The domain's `SignatureVerifier` through OpenSSL (SKANTLS), for received postbacks.
    struct OpenSSLSignatureVerifier: SignatureVerifier {
        func verifyP256(der: [UInt8], of message: [UInt8], publicKey: [UInt8]) -> Bool {
            P256Verification.verify(der: der, of: message, publicKey: publicKey)
        }
    }
#endif

extension PostbackVerifier {
    /// The server's verifier: Apple's published keys, and the local CA's key when HTTPS loaded it
    /// (`local`); in a build without TLS, none, and every postback says so.
    static func server(local: PostbackKey?) -> PostbackVerifier {
        #if SKAN_MOCK_TLS
            return PostbackVerifier(
                verifier: OpenSSLSignatureVerifier(), keys: AppleAttributionKeys.all + (local.map { [$0] } ?? []))
        #else
            _ = local
            return PostbackVerifier(
                unavailable:
                    "unverified: this build of skan-mock has no TLS (OpenSSL), so it cannot check signatures")
        #endif
    }
}
