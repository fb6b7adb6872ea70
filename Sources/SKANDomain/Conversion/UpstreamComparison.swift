/// What a client would apply from an answer of Singular's shape: whether it is ok, and the values
/// it carries. Two answers that agree on these agree for the app, whatever else differs (key order,
/// spacing, an error's wording).
public struct AppliedAnswer: Sendable, Equatable, CustomStringConvertible {
    public var ok: Bool
    public var value: Int64?
    public var coarse: Int64?
    public var lock: Bool?

    public init(ok: Bool, value: Int64? = nil, coarse: Int64? = nil, lock: Bool? = nil) {
        self.ok = ok
        self.value = value
        self.coarse = coarse
        self.lock = lock
    }

    /// Reads an answer body; nil when it is not a JSON object with a `status` (garbage, HTML).
    public init?(status: Int, body: [UInt8]) {
        guard let json = try? JSONParser.parse(body), json["status"] != nil else { return nil }
        ok = (200..<300).contains(status) && json["status"]?.stringValue == "ok"
        value = json["conversion_value"]?.intValue
        coarse = json["skan_updated_coarse_value"]?.intValue
        lock = json["skan_updated_lock_window_value"]?.boolValue
    }

    /// What a client that got this answer holds: an answer the server cannot read (garbage, HTML)
    /// is one it could not use. The one reading of a proxied, replayed or journaled answer that
    /// the device's state adopts.
    public static func received(status: Int, body: [UInt8]) -> AppliedAnswer {
        AppliedAnswer(status: status, body: body) ?? AppliedAnswer(ok: false)
    }

    /// The values a device keeps in window `n` from this answer, or nil when it has none to keep
    /// (an error, or an `ok` without values). As with the model's: a fine value counts in p0 only.
    func windowAnswer(window n: Int, currentFine current: Int64) -> ModelAnswer? {
        guard ok, value != nil || coarse != nil || lock != nil else { return nil }
        return ModelAnswer(fine: n == 0 ? (value ?? current) : current, coarse: coarse, lock: lock ?? false)
    }

    /// `ok, value 3, coarse 1, lock false` or `error`.
    public var description: String {
        guard ok else { return "error" }
        var parts = ["ok"]
        parts.append(value.map { "value \($0)" } ?? "no value")
        if let coarse { parts.append("coarse \(coarse)") }
        if let lock { parts.append("lock \(lock)") }
        return parts.joined(separator: ", ")
    }
}

/// The model's answer against the upstream's for one request (`--upstream`): the finding that
/// says how they differ for the app, or none when they agree.
public enum UpstreamComparison {
    public static func finding(model: (status: Int, body: [UInt8]), upstream: (status: Int, body: [UInt8]))
        -> ValidationFinding?
    {
        // The usual case when shadowing: the very same bytes, read once instead of twice (bytes
        // that are not Singular's shape go on to be named below, the same on both sides or not).
        if model.status == upstream.status && model.body == upstream.body
            && AppliedAnswer(status: upstream.status, body: upstream.body) != nil
        {
            return nil
        }
        let mine = AppliedAnswer(status: model.status, body: model.body)
        guard let theirs = AppliedAnswer(status: upstream.status, body: upstream.body) else {
            let text = String(decoding: upstream.body.prefix(120), as: UTF8.self)
            return ValidationFinding(
                param: "upstream", code: .differsFromUpstream,
                message:
                    "the upstream answered HTTP \(upstream.status) with a body that is not Singular's shape (\(text)); the model answered \(mine?.description ?? "the same")"
            )
        }
        guard mine != theirs else { return nil }
        return ValidationFinding(
            param: "upstream", code: .differsFromUpstream,
            message:
                "the model answered \(mine?.description ?? "no JSON") where the upstream answered \(theirs.description)"
        )
    }

    public static func failure(_ code: FindingCode, reason: String) -> ValidationFinding {
        ValidationFinding(param: "upstream", code: code, message: reason)
    }
}
