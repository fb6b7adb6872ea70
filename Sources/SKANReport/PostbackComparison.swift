import SKANDomain

/// A received postback set against what skan-mock predicts for a device: the same window, at the
/// tier the postback shows it was sent at, with the same `did-win`. "matches" when the values
/// agree, "differs" with each difference in words, "unmatched" (with the devices it could be) when
/// no device was named. Pure, so the admin route and tests share it.
public struct PostbackComparison: Sendable, Equatable {
    public enum Result: String, Sendable, CaseIterable {
        case matches
        case differs
        case unmatched
    }

    public var result: Result
    public var device: String?
    /// The tier the postback was read at (what it carries tells it); nil for SKAN 3.
    public var tier: Int?
    public var window: String
    public var differences: [String]
    /// The predicted postback's status, fine and coarse values.
    public var predicted: JSONValue
    public var candidates: [String]

    /// The crowd-anonymity tier `postback` was sent at, as far as its fields tell: a fine value in
    /// the first postback is tier 2, or 3 with the publishing app named; a coarse value alone,
    /// tier 1; nothing, tier 0. Later postbacks carry the same at tiers 1-3: read at 3.
    public static func tier(of postback: ReceivedPostback) -> Int {
        guard postback.index == 0 else { return 3 }
        if postback.fine != nil {
            let namesSource =
                postback.json["source-app-id"] != nil || postback.json["source-domain"] != nil
                || postback.jwsPayload?["publisher-item-identifier"] != nil
            return namesSource ? 3 : 2
        }
        return postback.coarse != nil ? 1 : 0
    }

    /// The options to predict `postback` with: its framework, its `did-win`, all four tiers.
    public static func options(for postback: ReceivedPostback, developerMode: Bool) -> PostbackQuery {
        var options = PostbackQuery()
        options.framework = postback.framework
        options.didWin = postback.didWin ?? true
        options.developerMode = developerMode
        options.tiers = [0, 1, 2, 3]
        return options
    }

    /// `postback` against `predicted`, made with `options(for:developerMode:)`.
    public static func compare(_ postback: ReceivedPostback, with predicted: DevicePostbacks) -> PostbackComparison {
        let tier = postback.isSKAN3 ? nil : Self.tier(of: postback)
        let window = postback.windowName
        let expected: PostbackSimulator.Postback? =
            postback.isSKAN3
            ? predicted.skan3
            : predicted.tiers.first { $0.tier == tier }.flatMap { t in
                postback.index < t.postbacks.count ? t.postbacks[postback.index] : nil
            }
        var differences: [String] = []
        func name(_ fine: Int64?) -> String { fine.map(String.init) ?? "none" }
        func coarseName(_ value: Int64?) -> String? { value.map { CoarseValue.name($0) } }
        guard let expected, expected.status != .neverSent else {
            differences.append(
                "skan-mock predicts no \(window) postback for \(predicted.device)"
                    + (expected?.reason.map { ": \($0)" } ?? ""))
            return PostbackComparison(
                result: .differs, device: predicted.device, tier: tier, window: window, differences: differences,
                predicted: expected.map(Self.json) ?? .null, candidates: [])
        }
        if postback.fine != expected.fine {
            differences.append(
                "conversion-value is \(name(postback.fine)), skan-mock predicts \(name(expected.fine))")
        }
        if postback.coarse != coarseName(expected.coarse) {
            differences.append(
                "coarse-conversion-value is \(postback.coarse ?? "none"), skan-mock predicts \(coarseName(expected.coarse) ?? "none")"
            )
        }
        return PostbackComparison(
            result: differences.isEmpty ? .matches : .differs, device: predicted.device, tier: tier, window: window,
            differences: differences, predicted: Self.json(expected), candidates: [])
    }

    /// `postback` against the prediction for `device` (the one named on its receiving URL), as the
    /// receiver journals it: with none named there is nothing to compare with (`unmatched`, no
    /// candidates looked for). `predict` gives a device's prediction, nil for one skan-mock does
    /// not know.
    public static func compare(
        _ postback: ReceivedPostback, device: String?, developerMode: Bool = false,
        predict: (String, PostbackQuery) -> DevicePostbacks?
    ) -> PostbackComparison {
        guard let device else { return unmatched(postback, candidates: []) }
        guard let predicted = predict(device, options(for: postback, developerMode: developerMode)) else {
            return unknownDevice(postback, device: device)
        }
        return compare(postback, with: predicted)
    }

    /// The journal's verdict: `unmatched` (no device named) is `unverified` there.
    public var verdict: PredictionVerdict {
        switch result {
        case .matches, .differs:
            return PredictionVerdict(
                result: result == .matches ? .matches : .differs, tier: tier, differences: differences,
                predicted: predicted)
        case .unmatched:
            return PredictionVerdict(
                result: .unverified, tier: tier,
                differences: [
                    "no device named on the receiving URL, so nothing to compare with; GET /__admin/postbacks/received?device=ID compares it with one"
                ], predicted: .null)
        }
    }

    /// Named for a device skan-mock does not know: nothing to compare with.
    public static func unknownDevice(_ postback: ReceivedPostback, device: String) -> PostbackComparison {
        PostbackComparison(
            result: .differs, device: device, tier: postback.isSKAN3 ? nil : tier(of: postback),
            window: postback.windowName,
            differences: ["skan-mock does not know device \(device): it has made no prediction for it"],
            predicted: .null, candidates: [])
    }

    /// No device named: the devices whose prediction it matches.
    public static func unmatched(_ postback: ReceivedPostback, candidates: [String]) -> PostbackComparison {
        PostbackComparison(
            result: .unmatched, device: nil, tier: postback.isSKAN3 ? nil : tier(of: postback),
            window: postback.windowName, differences: [], predicted: .null,
            candidates: candidates)
    }

    static func json(_ p: PostbackSimulator.Postback) -> JSONValue {
        [
            "status": .string(p.status.rawValue), "fine": p.fine.map { .int($0) } ?? .null,
            "coarse": p.coarse.map { .string(CoarseValue.name($0)) } ?? .null
        ]
    }

    public var json: JSONValue {
        var members: [JSONMember] = [
            JSONMember("result", .string(result.rawValue)), JSONMember("device", device.map { .string($0) } ?? .null),
            JSONMember("tier", tier.map { .int(Int64($0)) } ?? .null), JSONMember("window", .string(window))
        ]
        if result == .unmatched {
            members.append(JSONMember("candidates", .array(candidates.map { .string($0) })))
        } else {
            members += [
                JSONMember("differences", .array(differences.map { .string($0) })), JSONMember("predicted", predicted)
            ]
        }
        return .object(members)
    }
}
