import HTTPCore
import SKANDomain

#if SKAN_MOCK_TLS
    import SKANPhoneSetup
    import SKANTLS
#endif

/// What HTTPS adds to a server: the TLS context for the second port, and the public CA a phone
/// must trust (served at `/__admin/ca.pem`, `/__admin/ca.mobileconfig` and `/__admin/phone`).
/// Built before anything listens, so a bad certificate file stops the start with its name.
struct HTTPSService: Sendable {
    /// The wire protocol of the HTTPS port.
    let security: any HTTPWireSecurity
    /// Lines for standard error: permissions taken away from the state folder or the CA key.
    var notes: [String] = []
    /// AdAttributionKit postbacks are signed with the local CA's key; with the user's own
    /// certificate there is none to sign with.
    var postbackSigning = PostbackSigning(
        unsigned:
            "not signed: skan-mock signs with its local CA's key, and this server uses your own certificate (--tls-cert) instead"
    )
    /// The local CA's public key, to verify postbacks skan-mock signed (none with --tls-cert).
    var postbackKey: PostbackKey?
    #if SKAN_MOCK_TLS
        let phone: PhoneSetup
    #endif

    static let plaintextRefusal =
        "this port speaks HTTPS (TLS): use https:// with this port, or plain HTTP on skan-mock's other port"

    /// Why HTTPS could not be set up, naming the file when one is at fault.
    struct SetupError: Error, CustomStringConvertible {
        let description: String
    }

    init(_ options: HTTPSOptions) throws(SetupError) {
        #if SKAN_MOCK_TLS
            do {
                let identity: TLSIdentity
                if let certificate = options.certificateFile, let key = options.keyFile {
                    identity = try TLSIdentity.load(certificateFile: certificate, keyFile: key)
                } else {
                    var extra: [SubjectAltName] = []
                    for name in options.extraNames {
                        guard let san = SubjectAltName(name) else {
                            throw TLSSetupError("--tls-name \(name) is neither a host name nor an IP address")
                        }
                        extra.append(san)
                    }
                    let (ca, _, fixed) = try LocalCA.loadOrCreateNoting(in: options.stateDirectory)
                    notes = fixed.map { "skan-mock: \($0)" }
                    postbackSigning = PostbackSigning(signer: LocalCAPostbackSigner(ca: ca))
                    postbackKey = PostbackKey(
                        id: ca.keyID, owner: "skan-mock's local CA", publicKey: ca.certificate.publicKeyDER)
                    identity = try ca.issueServerIdentity(names: ServerNames.all(extra: extra))
                }
                security = TLSWireSecurity(
                    context: try TLSContext(identity: identity), plaintextRefusal: Self.plaintextRefusal)
                phone = PhoneSetup(trustAnchor: identity.trustAnchor)
            } catch let error as TLSSetupError {
                throw SetupError(description: error.description)
            } catch {
                throw SetupError(description: "\(error)")
            }
        #else
            _ = options
            throw SetupError(
                description:
                    "this build of skan-mock has no TLS support: on Linux install libssl-dev and libqrencode-dev (Tests/test.sh does), then build once with `swift build --manifest-cache none --disable-build-manifest-caching` (SwiftPM keeps the plan it made before the headers were there); on a Mac build with SKAN_MOCK_TLS=1 and Homebrew's openssl@3 and qrencode, or use the container (README: The local certificate authority)"
            )
        #endif
    }
}
