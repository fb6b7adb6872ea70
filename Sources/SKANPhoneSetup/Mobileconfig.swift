#if SKAN_MOCK_TLS
    import SKANTLS

    /// The configuration profile (`.mobileconfig`) that installs a CA on an iPhone: an unsigned XML
    /// property list with one `com.apple.security.root` payload. Its identifiers and UUIDs derive from the
    /// certificate's SHA-256, so downloading it again replaces the same profile instead of adding one,
    /// and a new CA gets a new profile.
    public enum Mobileconfig {
        public static let contentType = "application/x-apple-aspen-config"

        public static func profile(for certificate: Certificate) -> String {
            let digest = certificate.sha256
            let name = HTMLEscaping.escape(certificate.commonName ?? "skan-mock CA")
            let tag = digest.prefix(8).map { hex($0) }.joined()
            let content = Base64.encode(certificate.der, lineLength: 52)
                .split(separator: "\n").map { "\t\t\t" + $0 }.joined(separator: "\n")
            return """
                <?xml version="1.0" encoding="UTF-8"?>
                <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
                <plist version="1.0">
                <dict>
                \t<key>PayloadContent</key>
                \t<array>
                \t\t<dict>
                \t\t\t<key>PayloadCertificateFileName</key>
                \t\t\t<string>skan-mock-ca.cer</string>
                \t\t\t<key>PayloadContent</key>
                \t\t\t<data>
                \(content)
                \t\t\t</data>
                \t\t\t<key>PayloadDescription</key>
                \t\t\t<string>Adds the certificate authority of skan-mock, a local SKAdNetwork mock server.</string>
                \t\t\t<key>PayloadDisplayName</key>
                \t\t\t<string>\(name)</string>
                \t\t\t<key>PayloadIdentifier</key>
                \t\t\t<string>skan-mock.ca.\(tag).root</string>
                \t\t\t<key>PayloadType</key>
                \t\t\t<string>com.apple.security.root</string>
                \t\t\t<key>PayloadUUID</key>
                \t\t\t<string>\(uuid(digest, from: 16))</string>
                \t\t\t<key>PayloadVersion</key>
                \t\t\t<integer>1</integer>
                \t\t</dict>
                \t</array>
                \t<key>PayloadDescription</key>
                \t<string>Lets this device trust HTTPS from skan-mock. After installing, turn on full trust in Settings &gt; General &gt; About &gt; Certificate Trust Settings.</string>
                \t<key>PayloadDisplayName</key>
                \t<string>\(name)</string>
                \t<key>PayloadIdentifier</key>
                \t<string>skan-mock.ca.\(tag)</string>
                \t<key>PayloadOrganization</key>
                \t<string>skan-mock</string>
                \t<key>PayloadRemovalDisallowed</key>
                \t<false/>
                \t<key>PayloadType</key>
                \t<string>Configuration</string>
                \t<key>PayloadUUID</key>
                \t<string>\(uuid(digest, from: 0))</string>
                \t<key>PayloadVersion</key>
                \t<integer>1</integer>
                </dict>
                </plist>

                """
        }

        /// An RFC 9562 version 8 (custom) UUID from 16 bytes of `digest` starting at `offset`.
        static func uuid(_ digest: [UInt8], from offset: Int) -> String {
            var bytes = Array(digest[offset..<offset + 16])
            bytes[6] = bytes[6] & 0x0F | 0x80
            bytes[8] = bytes[8] & 0x3F | 0x80
            let hexes = bytes.map { hex($0) }
            return [0..<4, 4..<6, 6..<8, 8..<10, 10..<16].map { hexes[$0].joined() }.joined(separator: "-")
        }

        private static func hex(_ byte: UInt8) -> String {
            let text = String(byte, radix: 16, uppercase: true)
            return text.count == 1 ? "0" + text : text
        }
    }
#endif
