/// What this build has compiled in. HTTPS and `--upstream` link C libraries that Package.swift
/// looks for when the package is built, so a first `swift run` on a fresh Linux machine builds
/// without them and, until now, without a word: the start-up says so in one line, with how to get
/// them, instead of leaving a SwiftPM warning to decode.
public enum BuildFeatures {
    /// HTTPS (OpenSSL 3, libqrencode): `--https-port`, the phone set-up, signed postbacks.
    public static var https: Bool {
        #if SKAN_MOCK_TLS
            true
        #else
            false
        #endif
    }

    /// libcurl's client: `--upstream`.
    public static var upstream: Bool {
        #if SKAN_MOCK_UPSTREAM
            true
        #else
            false
        #endif
    }

    /// Which advice `notice` gives: Debian's packages, or Homebrew's.
    #if os(Linux)
        public static let isLinux = true
    #else
        public static let isLinux = false
    #endif

    /// The start-up line naming what is compiled out and how to build it in; nil when nothing is.
    /// On Linux: the Debian packages, then one build that reads Package.swift again (SwiftPM keeps
    /// the plan it made without them otherwise). On a Mac only HTTPS can be missing (Xcode has
    /// libcurl): Homebrew's libraries and `SKAN_MOCK_TLS=1`.
    public static func notice(https: Bool = https, upstream: Bool = upstream, linux: Bool = isLinux) -> String? {
        var missing: [String] = []
        var packages: [String] = []
        if !https {
            missing.append("HTTPS (--https-port)")
            packages += ["libssl-dev", "libqrencode-dev"]
        }
        if !upstream {
            missing.append("--upstream")
            packages.append("libcurl4-openssl-dev")
        }
        guard !missing.isEmpty else { return nil }
        let what = "skan-mock: this build has no \(missing.joined(separator: " and no "))"
        guard linux else {
            return what
                + ": a Mac builds it with Homebrew's openssl@3 and qrencode and SKAN_MOCK_TLS=1 (docs/iphone-https.md, HTTPS on a Mac)"
        }
        return what
            + ": their C headers were not installed when it was built. To build them in: sudo apt-get install \(packages.joined(separator: " ")), then swift build --manifest-cache none --disable-build-manifest-caching (./Tests/test.sh does both)"
    }
}
