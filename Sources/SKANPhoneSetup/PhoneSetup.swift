#if SKAN_MOCK_TLS
    import SKANTLS
    import SystemPOSIX

    /// The bodies of the three phone set-up routes (`/__admin/ca.pem`, `/__admin/ca.mobileconfig`,
    /// `/__admin/phone`), as pure values for the server to serve. They reveal only the public
    /// certificate, so they need no admin token.
    public struct PhoneSetup: Sendable {
        /// The certificate a phone must trust: the local CA, or the last one of `--tls-cert`.
        public let trustAnchor: Certificate

        public init(trustAnchor: Certificate) {
            self.trustAnchor = trustAnchor
        }

        public static let caPEMContentType = "application/x-pem-file"
        public static let mobileconfigContentType = Mobileconfig.contentType
        public static let pageContentType = PhonePage.contentType

        /// `GET /__admin/ca.pem`.
        public var caPEM: String { trustAnchor.pem }

        /// `GET /__admin/ca.mobileconfig`.
        public var mobileconfig: String { Mobileconfig.profile(for: trustAnchor) }

        /// `GET /__admin/phone`, for a server listening on `listeningHost` with both ports.
        public func page(
            listeningHost: String, httpPort: Int, httpsPort: Int,
            machineAddresses: [String] = PhoneSetup.machineAddresses()
        ) -> String {
            PhonePage.html(
                PhonePage.Input(
                    listeningHost: listeningHost, httpPort: httpPort, httpsPort: httpsPort,
                    machineAddresses: machineAddresses,
                    caName: trustAnchor.commonName ?? "skan-mock CA", caFingerprint: trustAnchor.sha256Fingerprint
                ))
        }

        /// This machine's non-loopback addresses, IPv4 first (what people type and phones reach most).
        public static func machineAddresses() -> [String] { System.networkAddresses() }
    }
#endif
