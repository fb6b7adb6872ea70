import SKANDomain

/// A received postback set against skan-mock's prediction: decoded with the model, with its
/// signature's verdict and the comparison. The one place `GET /__admin/postbacks/received`,
/// `GET /__admin/report`, `skan-mock report` and its JUnit output get them, so they never
/// disagree; the caller says where predictions and candidate devices come from (the live server,
/// or the device states a journal file rebuilds).
public struct ReceivedPostbackCheck: Sendable {
    public var entry: ReceivedPostbackStore.Entry
    public var comparison: PostbackComparison
    /// What the value means in the model; nil without a model, and for SKAN 3.
    public var meaning: PostbackMeaning.Meaning?

    /// Devices looked at for an unmatched postback's candidates (the caller's, most recent first),
    /// and how many candidates are kept.
    public static let candidateScan = 200
    public static let candidateLimit = 10

    /// `entries` compared, oldest first. With `device`, those named for it or for none (a phone
    /// names none) are compared with it and the others left out; without it, each with the device
    /// named on its receiving URL, or "unmatched" with the devices (of `candidates()`) whose
    /// prediction it matches. `predict` gives a device's prediction with the options, nil for a
    /// device skan-mock does not know; each is asked once per framework and `did-win`.
    public static func check(
        _ entries: [ReceivedPostbackStore.Entry], device: String?, model: ConversionModel?, developerMode: Bool,
        predict: (String, PostbackQuery) -> DevicePostbacks?, candidates: () -> [String]
    ) -> [ReceivedPostbackCheck] {
        var made: [String: DevicePostbacks?] = [:]
        var scanned: [String]?
        func compare(_ postback: ReceivedPostback, with id: String) -> PostbackComparison {
            PostbackComparison.compare(postback, device: id, developerMode: developerMode) { id, options in
                let key = "\(options.framework.rawValue) \(options.didWin) \(id)"
                if let known = made[key] { return known }
                let predicted = predict(id, options)
                made[key] = predicted
                return predicted
            }
        }
        var checks: [ReceivedPostbackCheck] = []
        for entry in entries where device == nil || entry.device == nil || entry.device == device {
            let p = entry.postback
            let comparison: PostbackComparison
            if let target = device ?? entry.device {
                comparison = compare(p, with: target)
            } else {
                if scanned == nil { scanned = Array(candidates().prefix(candidateScan)) }
                var found: [String] = []
                for id in scanned ?? [] where found.count < candidateLimit {
                    if compare(p, with: id).result == .matches { found.append(id) }
                }
                comparison = PostbackComparison.unmatched(p, candidates: found)
            }
            let meaning =
                p.isSKAN3
                ? nil
                : model.flatMap { PostbackMeaning.received(index: p.index, fine: p.fine, coarse: p.coarse, model: $0) }
            checks.append(ReceivedPostbackCheck(entry: entry, comparison: comparison, meaning: meaning))
        }
        return checks
    }

    /// Why CI should fail for it, nil when it should not: the postback differs from the prediction
    /// (or names a device skan-mock does not know), or its signature does not verify with the key
    /// it names. Unverified for any other reason (no signature, a key skan-mock does not know, a
    /// build without TLS) is skan-mock not being able to tell, not the postback being wrong: shown,
    /// not failed.
    public var failure: (type: String, message: String)? {
        if comparison.result == .differs {
            return ("postback_differs", comparison.differences.joined(separator: "; "))
        }
        if entry.verdict.badSignature {
            return (FindingCode.postbackSignatureInvalid.rawValue, entry.verdict.reason)
        }
        return nil
    }

    /// Why it was not compared (no device named, none given): JUnit's `skipped`, nil otherwise.
    public var skipped: String? {
        guard comparison.result == .unmatched else { return nil }
        let could =
            comparison.candidates.isEmpty
            ? "it matches no device's prediction" : "it could be " + comparison.candidates.joined(separator: ", ")
        return "no device named, so not compared (\(could)); name one to compare: skan-mock report --postback-device ID"
    }

    /// `#3 skan p0 tier 2 fine 5, device QA-1: differs (conversion-value is 5, skan-mock predicts 1); unverified: ...`
    public var line: String {
        let p = entry.postback
        let value = p.fine.map { "fine \($0)" } ?? p.coarse.map { "coarse \($0)" } ?? "no value"
        let tier = comparison.tier.map { " tier \($0)" } ?? ""
        let who = comparison.device.map { "device \($0)" } ?? "no device named"
        var verdict = comparison.result.rawValue
        if !comparison.differences.isEmpty {
            verdict += " (" + comparison.differences.joined(separator: "; ") + ")"
        }
        if comparison.result == .unmatched {
            verdict +=
                comparison.candidates.isEmpty
                ? " (matches no device's prediction)" : " (could be \(comparison.candidates.joined(separator: ", ")))"
        }
        return
            "#\(entry.id) \(p.framework.rawValue) \(comparison.window)\(tier) \(value), \(who): \(verdict); \(entry.verdict.reason)"
    }

    /// One item of `GET /__admin/postbacks/received`'s `postbacks`.
    public var json: JSONValue {
        let p = entry.postback
        let decoded: JSONValue = .object([
            JSONMember("window", .string(comparison.window)), JSONMember("index", .int(Int64(p.index))),
            JSONMember("tier", comparison.tier.map { .int(Int64($0)) } ?? .null),
            JSONMember("did_win", p.didWin.map { .bool($0) } ?? .null),
            JSONMember("fine", p.fine.map { .int($0) } ?? .null),
            JSONMember("coarse", p.coarse.map { .string($0) } ?? .null),
            JSONMember("transaction_id", .string(p.transactionID)),
            JSONMember("meaning", .array(meaning?.entries ?? [])),
            JSONMember("findings", .array(meaning?.finding.map { [$0.json] } ?? []))
        ])
        var members: [JSONMember] = [
            JSONMember("id", .int(entry.id)),
            JSONMember("time", .string(RFC3339.format(milliseconds: entry.timeMilliseconds))),
            JSONMember("path", .string(entry.path)), JSONMember("remote", .string(entry.remote)),
            JSONMember("framework", .string(p.framework.rawValue)),
            JSONMember("named_device", entry.device.map { .string($0) } ?? .null), JSONMember("postback", p.json)
        ]
        if let header = p.jwsHeader, let payload = p.jwsPayload {
            members.append(JSONMember("jws", ["header": header, "payload": payload]))
        }
        members += [
            JSONMember("decoded", decoded), JSONMember("verified", entry.verdict.json),
            JSONMember("comparison", comparison.json)
        ]
        return .object(members)
    }
}
