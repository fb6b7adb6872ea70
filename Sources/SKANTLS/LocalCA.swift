#if SKAN_MOCK_TLS
    import SystemPOSIX

    /// skan-mock's own certificate authority, kept in the state folder (`ca.pem`, `ca-key.pem`) so that
    /// a phone set up once keeps trusting every server certificate issued from it, run after run.
    public struct LocalCA: Sendable {
        /// The state folder, absolute.
        public let directory: String
        public let certificate: Certificate
        let key: PrivateKey

        public var certificatePath: String { directory + "/ca.pem" }
        public var keyPath: String { directory + "/ca-key.pem" }

        /// The CA in `directory`, created there (folder 0700, key 0600) when there is none or when
        /// `renew` is set. `created` tells which happened.
        public static func loadOrCreate(in directory: String, renew: Bool = false) throws(TLSSetupError) -> (
            ca: LocalCA, created: Bool
        ) {
            let (ca, created, _) = try loadOrCreateNoting(in: directory, renew: renew)
            return (ca, created)
        }

        /// `loadOrCreate`, plus a line for each permission it had to take away: a state folder or a
        /// CA key other users could read is made private (0700, 0600) before it is used. A key path
        /// that is a symbolic link is refused (`--renew` replaces it).
        public static func loadOrCreateNoting(in directory: String, renew: Bool = false) throws(TLSSetupError) -> (
            ca: LocalCA, created: Bool, notes: [String]
        ) {
            let absolute = SecureFile.absolute(directory)
            var notes: [String] = []
            if SecureFile.exists(absolute) { notes += try SecureFile.makePrivate(absolute, mode: 0o700) }
            let key = absolute + "/ca-key.pem"
            // A link at the key path is refused, unless --renew replaces it (by rename, which
            // replaces the link and leaves the file it names alone).
            if SecureFile.isSymbolicLink(key) ? !renew : SecureFile.exists(key) {
                notes += try SecureFile.makeKeyPrivate(key, mode: 0o600)
            }
            let (ca, created) = try loadOrCreateUnchecked(in: directory, renew: renew)
            return (ca, created, notes)
        }

        private static func loadOrCreateUnchecked(in directory: String, renew: Bool) throws(TLSSetupError) -> (
            ca: LocalCA, created: Bool
        ) {
            let directory = SecureFile.absolute(directory)
            let certificatePath = directory + "/ca.pem"
            let keyPath = directory + "/ca-key.pem"
            if !renew && SecureFile.exists(certificatePath) {
                return (try load(directory: directory, certificatePath: certificatePath, keyPath: keyPath), false)
            }
            try SecureFile.makeDirectory(directory)
            // Two first starts at once (parallel test runs) must not pair one's key with the other's
            // certificate: one makes the CA, the other waits and loads it.
            let lock = try SecureFile.lock(directory + "/ca.lock")
            defer { SecureFile.unlock(lock) }
            if !renew && SecureFile.exists(certificatePath) {
                return (try load(directory: directory, certificatePath: certificatePath, keyPath: keyPath), false)
            }
            let (certificate, key) = try CertificateIssuer.makeAuthority(commonName: commonName())
            // The key first: a certificate without its key on disk would stop every later start.
            try SecureFile.replace(keyPath, with: key.pem, mode: 0o600)
            try SecureFile.replace(certificatePath, with: Array(certificate.pem.utf8), mode: 0o644)
            return (LocalCA(directory: directory, certificate: certificate, key: key), true)
        }

        private static func load(directory: String, certificatePath: String, keyPath: String) throws(TLSSetupError)
            -> LocalCA
        {
            let certificate: Certificate
            do {
                certificate = try Certificate.chain(pem: try SecureFile.contents(of: certificatePath))[0]
            } catch {
                throw error.about(certificatePath)
            }
            let key: PrivateKey
            do {
                key = try PrivateKey(pem: try SecureFile.contents(of: keyPath))
            } catch {
                throw error.about(keyPath)
            }
            guard key.matches(certificate) else {
                throw TLSSetupError(
                    file: keyPath, "does not match \(certificatePath) (make a new CA with `skan-mock ca --renew`)")
            }
            return LocalCA(directory: directory, certificate: certificate, key: key)
        }

        /// A fresh server certificate for `names` (see ``ServerNames/all(extra:)``), with this CA as
        /// trust anchor.
        public func issueServerIdentity(names: [SubjectAltName]) throws(TLSSetupError) -> TLSIdentity {
            let (server, serverKey) = try CertificateIssuer.issueServer(
                names: names, authority: certificate, authorityKey: key)
            return TLSIdentity(chain: [server], key: serverKey, trustAnchor: certificate)
        }

        /// "skan-mock CA (HOST, 2026-11-23)": the name a phone lists under Certificate Trust Settings,
        /// telling apart the CAs of several machines and of a renewal.
        private static func commonName() -> String {
            let today = System.utcCalendar(System.nowSeconds())
            func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
            let date = "\(today.year)-\(two(today.month))-\(two(today.day))"
            let host = ServerNames.hostName().map { String($0.prefix(32)) } ?? "localhost"
            return "skan-mock CA (\(host), \(date))"
        }
    }
#endif
