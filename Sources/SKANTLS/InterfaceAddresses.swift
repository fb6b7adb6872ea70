#if SKAN_MOCK_TLS
    import SystemPOSIX

    /// The addresses of this machine's network interfaces that are up (getifaddrs): what a phone on the
    /// same network can reach, so the server certificate names them and the phone page shows one.
    public enum InterfaceAddresses {
        public struct Address: Hashable, Sendable {
            public let interface: String
            public let address: String
            public let isIPv6: Bool
            public let isLoopback: Bool
        }

        /// `System.reachableAddresses()`: every IPv4 address and every IPv6 address except link-local
        /// ones, loopback included.
        public static func current() -> [Address] {
            System.reachableAddresses().map {
                Address(interface: $0.interface, address: $0.address, isIPv6: $0.isIPv6, isLoopback: $0.isLoopback)
            }
        }
    }
#endif
