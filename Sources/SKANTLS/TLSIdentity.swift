#if SKAN_MOCK_TLS
    /// What the HTTPS port presents: a certificate chain and its key, and the certificate a phone must
    /// trust (served at `/__admin/ca.pem` and in the profile).
    public struct TLSIdentity: Sendable {
        /// The server certificate first, then intermediates.
        public let chain: [Certificate]
        public let key: PrivateKey
        /// The local CA, or the last certificate of the user's `--tls-cert` file.
        public let trustAnchor: Certificate

        public init(chain: [Certificate], key: PrivateKey, trustAnchor: Certificate) {
            self.chain = chain
            self.key = key
            self.trustAnchor = trustAnchor
        }

        /// The chain as PEM, one certificate after the other (what a `--tls-cert` file holds).
        public var chainPEM: String { chain.map(\.pem).joined() }

        /// The user's own `--tls-cert FILE --tls-key FILE`: every certificate in the first file, the
        /// first one the server's; the key must match it. Errors name the file at fault.
        public static func load(certificateFile: String, keyFile: String) throws(TLSSetupError) -> TLSIdentity {
            let chain: [Certificate]
            do {
                chain = try Certificate.chain(pem: try SecureFile.contents(of: certificateFile))
            } catch {
                throw error.about(certificateFile)
            }
            let key: PrivateKey
            do {
                key = try PrivateKey(pem: try SecureFile.contents(of: keyFile))
            } catch {
                throw error.about(keyFile)
            }
            guard key.matches(chain[0]) else {
                throw TLSSetupError(file: keyFile, "this key does not match the certificate in \(certificateFile)")
            }
            return TLSIdentity(chain: chain, key: key, trustAnchor: chain[chain.count - 1])
        }
    }
#endif
