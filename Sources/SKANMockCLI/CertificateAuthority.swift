import ArgumentParser
import SKANFiles
import SKANMock

#if SKAN_MOCK_TLS
    import SKANTLS
#endif

/// `skan-mock ca`: shows (making it the first time) the local certificate authority that HTTPS
/// certificates are issued from, so a user can install or compare it before any phone asks.
struct CertificateAuthority: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ca",
        abstract: "Show skan-mock's local certificate authority (made when there is none).",
        discussion: """
            Prints the path of the CA certificate (install it on a device or a simulator to trust \
            skan-mock's HTTPS) and its SHA-256 fingerprint. The CA and its key (mode 0600) live in the \
            state folder (mode 0700).
            """
    )

    @Option(
        help: ArgumentHelp(
            "Folder of the local CA. [env: SKAN_MOCK_STATE_DIR, default: ~/.skan-mock]", valueName: "dir"))
    var stateDir: String?

    @Flag(help: "Make a new CA, replacing the one there (devices must trust the new one).")
    var renew = false

    func run() throws {
        let directory = try StateDirectory.resolve(option: stateDir)
        #if SKAN_MOCK_TLS
            do {
                let (ca, created, fixed) = try LocalCA.loadOrCreateNoting(in: directory, renew: renew)
                for line in fixed { StandardStreams.error("skan-mock ca: \(line)") }
                if created {
                    StandardStreams.error("skan-mock ca: made a new certificate authority in \(ca.directory)")
                }
                StandardStreams.output("CA certificate: \(ca.certificatePath)")
                StandardStreams.output("SHA-256 fingerprint: \(ca.certificate.sha256Fingerprint)")
            } catch {
                StandardStreams.error("skan-mock ca: \(error.description)")
                throw ExitCode(2)
            }
        #else
            StandardStreams.error(
                "skan-mock ca: this build has no TLS support (build it with OpenSSL 3: docs/iphone-https.md, The local certificate authority)"
            )
            _ = directory
            throw ExitCode(1)
        #endif
    }
}
