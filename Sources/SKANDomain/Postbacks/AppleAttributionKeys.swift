/// Apple's public keys for postbacks, as Apple publishes them (base64 of DER SubjectPublicKeyInfo,
/// EC P-256), by the `kid` AdAttributionKit names them with. SKAdNetwork 3.0 and 4.0 postbacks
/// are signed with the production key and name none.
public enum AppleAttributionKeys {
    /// Production: SKAdNetwork 3.0 and later, and AdAttributionKit's `apple-cas-identifier/0`.
    /// https://developer.apple.com/documentation/storekit/verifying-an-install-validation-postback
    /// https://developer.apple.com/documentation/adattributionkit/verifying-a-postback
    public static let production = PostbackKey(
        id: "apple-cas-identifier/0", owner: "Apple (production)",
        publicKey: Base64.decode(
            "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEWdp8GPcGqmhgzEFj9Z2nSpQVddayaPe4FMzqM9wib1+aHaaIzoHoLN9zW4K8y4SPykE3YVK3sVqW6Af0lfx3gg=="
        ) ?? [])

    /// Development postbacks from end-to-end flows (a development impression in Developer Mode).
    /// https://developer.apple.com/documentation/adattributionkit/verifying-a-postback
    public static let developmentEndToEnd = PostbackKey(
        id: "apple-development-identifier/0", owner: "Apple (development, end-to-end flows)",
        publicKey: Base64.decode(
            "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAELeEDzpJEP+/qRSE5hJVC1p1J0ssUnQGMzBBbvnACBok8OVGGLgxL0myrKiy6lvRtSlLRsWit87i+vftD8AEqeQ=="
        ) ?? [])

    /// Development postbacks made in Settings › Developer › Development Postbacks (iOS 18.4+).
    /// https://developer.apple.com/documentation/adattributionkit/verifying-a-postback
    public static let developmentSettings = PostbackKey(
        id: "apple-development-identifier/1", owner: "Apple (development, developer settings)",
        publicKey: Base64.decode(
            "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE8YzdO7eM97s/IJ25kdW5CZ3A14USE5IJ5Ha/vhWaxI6UBI1ZxCEvjrKxVluVGe6qWwF1BDFq+QHqKfH5u+wxHQ=="
        ) ?? [])

    public static let all = [production, developmentEndToEnd, developmentSettings]
}
