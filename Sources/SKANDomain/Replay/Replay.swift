import SystemPOSIX

/// `--replay`: a replay file's answers, served in the order they were recorded. Each device has,
/// per key, a queue of answers; a request with that key takes the next one, so two identical
/// requests in a row get the two answers production gave them, and a third gets none (the model
/// answers it, with a `not_recorded` finding). Forgetting the devices (`POST /__admin/reset`)
/// starts every queue again, so a suite can run twice against one server. Each tenant has its
/// own place in every queue (the same device id in two tenants is two devices), and a tenant's
/// reset rewinds its own only (issue 46.5).
public final class Replay: Sendable {
    /// A recorded answer, as production sent it.
    public struct Answer: Sendable, Equatable {
        public var status: Int
        public var body: [UInt8]
        public var journalId: Int64?
    }

    private let answers: [String: [ReplayKey: [Answer]]]
    /// Per tenant (nil: the default one), device and key, how many answers were taken.
    private let taken = Mutex<[String?: [String: [ReplayKey: Int]]]>([:])
    /// Where the answers came from (the replay file's path), for messages.
    public let source: String
    public let deviceCount: Int
    public let answerCount: Int

    public init(_ file: ReplayFile, source: String) {
        var answers: [String: [ReplayKey: [Answer]]] = [:]
        for device in file.devices {
            for request in device.requests {
                answers[device.id, default: [:]][request.key, default: []]
                    .append(Answer(status: request.status, body: request.body, journalId: request.journalId))
            }
        }
        self.answers = answers
        self.source = source
        deviceCount = file.devices.count
        answerCount = file.requestCount
    }

    /// The next recorded answer for `device` and `key` in `tenant` (nil: the default tenant),
    /// taken (the next call gets the one after); nil when there is none left, or none was recorded.
    public func take(device: String?, key: ReplayKey, tenant: String? = nil) -> Answer? {
        guard let device, let queue = answers[device]?[key] else { return nil }
        return taken.withLock { taken in
            let next = taken[tenant]?[device]?[key] ?? 0
            guard next < queue.count else { return nil }
            taken[tenant, default: [:]][device, default: [:]][key] = next + 1
            return queue[next]
        }
    }

    /// Starts `tenant`'s answers (nil: the default tenant's) from the first again, every other
    /// tenant's where they are; a dropped tenant's places go this way too.
    public func rewind(tenant: String? = nil) {
        _ = taken.withLock { $0.removeValue(forKey: tenant) }
    }

    /// The finding of a request that had no recorded answer left.
    public func notRecorded(device: String?, key: ReplayKey) -> ValidationFinding {
        let why: String
        if let device, let recorded = answers[device] {
            let count = recorded[key]?.count ?? 0
            why =
                count == 0
                ? "\(source) has no answer for device \(device) with this state"
                : count == 1
                    ? "the answer \(source) has for device \(device) with this state was replayed already"
                    : "the \(count) answers \(source) has for device \(device) with this state were all replayed"
        } else {
            why = device.map { "\(source) has no answers for device \($0)" } ?? "the request has no device id"
        }
        return ValidationFinding(
            param: "replay", code: .notRecorded,
            message: "\(why) (\(key.endpoint.rawValue) \(key.stateJSON)); the model answered")
    }
}
