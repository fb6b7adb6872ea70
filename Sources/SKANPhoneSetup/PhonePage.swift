#if SKAN_MOCK_TLS
    /// The page at `/__admin/phone`: the steps to trust skan-mock's CA on an iPhone, with QR codes so
    /// nothing is typed on the phone. A pure function of its inputs; every interpolated value is escaped,
    /// and there is no script.
    public enum PhonePage {
        public static let contentType = "text/html; charset=utf-8"

        /// What the page needs to know about the running server and the machine.
        public struct Input: Sendable {
            /// The `--host` the server listens on (`127.0.0.1`, `0.0.0.0`, an address).
            public var listeningHost: String
            public var httpPort: Int
            public var httpsPort: Int
            /// Non-loopback addresses of this machine, best first (``PhoneSetup/machineAddresses()``).
            public var machineAddresses: [String]
            /// The certificate the phone must trust: its name and SHA-256 fingerprint, as Settings shows them.
            public var caName: String
            public var caFingerprint: String

            public init(
                listeningHost: String, httpPort: Int, httpsPort: Int, machineAddresses: [String], caName: String,
                caFingerprint: String
            ) {
                self.listeningHost = listeningHost
                self.httpPort = httpPort
                self.httpsPort = httpsPort
                self.machineAddresses = machineAddresses
                self.caName = caName
                self.caFingerprint = caFingerprint
            }

            /// Listening on loopback only: a phone cannot connect, whatever the page says.
            public var isLoopbackOnly: Bool {
                ["localhost", "::1"].contains(listeningHost.lowercased()) || listeningHost.hasPrefix("127.")
            }

            /// The address a phone should use: the one listened on, or (on a wildcard or loopback
            /// host) the machine's first network address.
            public var phoneAddress: String? {
                if isLoopbackOnly || ["0.0.0.0", "::", "", "*"].contains(listeningHost) {
                    return machineAddresses.first
                }
                return listeningHost
            }

            /// `http://ADDRESS:HTTP_PORT/__admin/ca.mobileconfig`: plain HTTP, since the phone does not
            /// trust the HTTPS port yet.
            public var profileURL: String? {
                phoneAddress.map { "http://\(Self.urlHost($0)):\(httpPort)/__admin/ca.mobileconfig" }
            }

            /// `https://ADDRESS:HTTPS_PORT`, to check the trust once installed.
            public var httpsURL: String? { phoneAddress.map { "https://\(Self.urlHost($0)):\(httpsPort)" } }

            /// IPv6 addresses go in brackets in a URL.
            static func urlHost(_ address: String) -> String { address.contains(":") ? "[\(address)]" : address }
        }

        public static func html(_ input: Input) -> String {
            let e = HTMLEscaping.escape
            var body = ""
            if input.isLoopbackOnly {
                body += """
                    <p class="warning">skan-mock listens on <code>\(e(input.listeningHost))</code> only, which a phone cannot reach. \
                    Restart it with <code>--host 0.0.0.0</code>, then reload this page.</p>\n
                    """
            }
            body += """
                <ol>
                <li>On the iPhone, scan the first code with the Camera app (or open its link in Safari) and allow the download of the configuration profile.</li>
                <li>Open Settings &gt; Profile Downloaded (later: Settings &gt; General &gt; VPN &amp; Device Management), tap Install and confirm.</li>
                <li>Open Settings &gt; General &gt; About &gt; Certificate Trust Settings and turn on full trust for <strong>\(e(input.caName))</strong>.</li>
                <li>Scan the second code: Safari opens skan-mock over HTTPS with no warning. Point your app at that address.</li>
                </ol>\n
                """
            if let profileURL = input.profileURL, let httpsURL = input.httpsURL {
                body += "<div class=\"codes\">\n"
                for (title, url) in [("1. Install the profile", profileURL), ("2. Check HTTPS", httpsURL)] {
                    let code = (try? QRCode(encoding: url))?.svg() ?? ""
                    body +=
                        "<figure><figcaption>\(e(title))</figcaption>\(code)<p><code>\(e(url))</code></p></figure>\n"
                }
                body += "</div>\n"
            } else {
                body +=
                    "<p class=\"warning\">This machine has no network address a phone could use: connect it to the phone's network and reload this page.</p>\n"
            }
            body +=
                "<p class=\"fingerprint\">Certificate <strong>\(e(input.caName))</strong>, SHA-256 fingerprint <code>\(e(input.caFingerprint))</code></p>\n"
            return """
                <!doctype html>
                <html lang="en">
                <head>
                <meta charset="utf-8">
                <meta name="viewport" content="width=device-width, initial-scale=1">
                <title>skan-mock: set up an iPhone for HTTPS</title>
                <style>
                body { font: 16px/1.5 -apple-system, system-ui, sans-serif; max-width: 46em; margin: 2em auto; padding: 0 1em; color: #222; }
                .warning { background: #fff3cd; border: 1px solid #e0c060; padding: .75em 1em; }
                .codes { display: flex; flex-wrap: wrap; gap: 2em; }
                figure { margin: 0; }
                figcaption { font-weight: 600; }
                code { word-break: break-all; }
                .fingerprint { font-size: 13px; color: #555; }
                </style>
                </head>
                <body>
                <h1>Set up an iPhone for HTTPS</h1>
                \(body)</body>
                </html>

                """
        }
    }
#endif
