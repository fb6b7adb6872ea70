/// Why a request has no `a` (the SDK key), in words that point at the real cause, which depends on
/// who sent it: Singular's SKAN snippet (the key is a placeholder left empty), a server-to-server
/// caller (Singular refuses it), or an app whose own back end adds the key before calling Singular
/// (the `--route` alias standing in for that back end must add it too).
public enum MissingAPIKey {
    public static func message(endpoint: SKANEndpoint, path: String) -> String {
        if path != endpoint.path {
            return
                "a (the SDK key) is missing: \(path) is a --route alias of \(endpoint.path), standing in for your back end, "
                + "which adds a before it calls Singular; give the alias the key: --route '\(path)=\(endpoint.routeName)?a=YOUR_SDK_KEY'"
        }
        if endpoint.isS2S {
            return
                "missing argument: a (the SDK key); a server-to-server request must carry it, and Singular refuses one without it"
        }
        return
            "a (the SDK key) is missing or empty; the snippet's @\"\" is a placeholder for your SDK key, and Singular rejects a request without it"
    }
}
