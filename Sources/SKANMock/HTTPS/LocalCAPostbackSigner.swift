import SKANDomain

#if SKAN_MOCK_TLS
    import SKANTLS

    /// Signs AdAttributionKit postbacks' JWS with the local CA's P-256 key (ES256), so a network's
    /// parser can check a signature end to end; Apple's own key signs real ones.
    struct LocalCAPostbackSigner: PostbackSigner {
        let ca: LocalCA

        var keyID: String { ca.keyID }

        func sign(_ input: [UInt8]) -> Result<[UInt8], PostbackSigningFailure> {
            do {
                return .success(try ca.signES256(input))
            } catch {
                return .failure(PostbackSigningFailure("not signed: \(error.description)"))
            }
        }
    }
#endif

extension PostbackSigning {
    #if SKAN_MOCK_TLS
        /// Why a server started without an HTTPS listener does not sign: the option to add.
        static let unavailableHere =
            "not signed: skan-mock signs with its local CA's key, which it loads only with an HTTPS listener (--https-port); Apple's own key signs real postbacks"
    #else
        static let unavailableHere =
            "not signed: this build of skan-mock has no TLS (OpenSSL), so it has no key to sign with; Apple's own key signs real postbacks"
    #endif
}
