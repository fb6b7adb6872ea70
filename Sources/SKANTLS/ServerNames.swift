#if SKAN_MOCK_TLS
    import SystemPOSIX

    /// The names a server certificate covers: whatever a client on this machine or on its network might
    /// type, so that no phone or simulator sees a name mismatch.
    public enum ServerNames {
        /// localhost, 127.0.0.1, ::1, the host name (and `NAME.local` when it has no dot, Bonjour's name),
        /// every interface address, then `extra` (`--tls-name`, already parsed), without repeats.
        public static func all(extra: [SubjectAltName] = []) -> [SubjectAltName] {
            var names: [SubjectAltName] = [.dns("localhost"), .ip("127.0.0.1"), .ip("::1")]
            if let host = hostName(), let name = SubjectAltName(host), case .dns(let dns) = name {
                names.append(name)
                if !dns.contains(".") { names.append(.dns(dns + ".local")) }
            }
            names += InterfaceAddresses.current().map { .ip($0.address) }
            names += extra
            var seen = Set<SubjectAltName>()
            return names.filter { seen.insert($0).inserted }
        }

        /// gethostname(), or nil when it fails or is empty.
        public static func hostName() -> String? {
            System.hostName()
        }
    }
#endif
