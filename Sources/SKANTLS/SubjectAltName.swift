#if SKAN_MOCK_TLS
    import SystemPOSIX

    /// One name a server certificate is valid for: a DNS name or an IP address (iOS checks only the
    /// subjectAltName, never the common name).
    public enum SubjectAltName: Hashable, Sendable, CustomStringConvertible {
        case dns(String)
        case ip(String)

        /// `NAME_OR_IP` as given to `--tls-name`: an IPv4 or IPv6 address, else a host name; nil when it
        /// is neither (a name with characters DNS does not allow).
        public init?(_ text: String) {
            if let address = Self.canonicalAddress(text) {
                self = .ip(address)
            } else if Self.isHostName(text) {
                self = .dns(text.lowercased())
            } else {
                return nil
            }
        }

        /// OpenSSL's configuration syntax, `DNS:localhost` or `IP:::1`.
        public var description: String {
            switch self {
            case .dns(let name): "DNS:\(name)"
            case .ip(let address): "IP:\(address)"
            }
        }

        /// The address in its canonical text form (`::1` for `0:0::1`), or nil when `text` is none.
        static func canonicalAddress(_ text: String) -> String? {
            System.parseIPAddress(text)?.text
        }

        /// Letters, digits, hyphens and dots, labels of 1 to 63, a leading `*.` allowed.
        static func isHostName(_ text: String) -> Bool {
            var labels = text.split(separator: ".", omittingEmptySubsequences: false)
            if labels.first == "*" && labels.count > 2 { labels.removeFirst() }
            guard !labels.isEmpty, text.utf8.count <= 253 else { return false }
            return labels.allSatisfy { label in
                (1...63).contains(label.utf8.count) && label.first != "-" && label.last != "-"
                    && label.utf8.allSatisfy {
                        $0 == UInt8(ascii: "-") || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0)
                            || (0x61...0x7A).contains($0)
                    }
            }
        }
    }
#endif
