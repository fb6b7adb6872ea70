/// The members the application adds to a journal entry (`Journal.record(extra:)`), written here,
/// beside the reader (`JournalRecord.init(json:)`), under the same names: the round-trip test
/// reads back every one of them.
extension JournalRecord {
    public static func clockOffsetMember(_ seconds: Int64) -> JSONMember {
        JSONMember(Field.clockOffsetSeconds, .int(seconds))
    }

    public static func tlsMember(_ version: String?) -> JSONMember {
        JSONMember(Field.tls, version.map { .string($0) } ?? .null)
    }

    /// What a route alias added, apart from the parameters as sent.
    public static func routeParamsMember(_ added: [(name: String, value: String)]) -> JSONMember {
        JSONMember(Field.routeParams, .object(added.map { JSONMember($0.name, .string($0.value)) }))
    }

    public static func upstreamMember(_ exchange: UpstreamOutcome) -> JSONMember {
        JSONMember(Field.upstream, exchange.json)
    }

    /// The model's own answer, when the client was sent another.
    public static func modelMember(_ answer: Answer) -> JSONMember {
        JSONMember(Field.model, answer.json)
    }

    public static func replayedMember(_ replayed: Bool) -> JSONMember {
        JSONMember(Field.replayed, .bool(replayed))
    }

    /// Why the answer was never sent (the server stopped during its delay); the entry's status is 0.
    public static func notSentMember(_ why: String) -> JSONMember {
        JSONMember(Field.notSent, .string(why))
    }

    /// The id of the journal entry a replayed answer was recorded from.
    public static func recordedIdMember(_ id: Int64) -> JSONMember {
        JSONMember(Field.recordedId, .int(id))
    }
}

extension JournalRecord.Answer {
    /// `{"status":...,"body":...}`, or `body_base64` when the bytes are not UTF-8, so they are
    /// kept exactly (a replay serves them).
    public var json: JSONValue {
        .object([JSONMember(JournalRecord.Field.status, .int(Int64(status))), bodyMember])
    }

    var bodyMember: JSONMember {
        Base64.isUTF8(body)
            ? JSONMember(JournalRecord.Field.body, .string(String(decoding: body, as: UTF8.self)))
            : JSONMember(JournalRecord.Field.bodyBase64, .string(Base64.encode(body)))
    }
}

extension JournalRecord.UpstreamOutcome {
    /// The journal entry's `upstream`.
    public var json: JSONValue {
        typealias F = JournalRecord.Field
        switch self {
        case .answered(let answer, let micros):
            var members = [JSONMember(F.status, .int(Int64(answer.status))), answer.bodyMember]
            if let micros { members.append(JSONMember(F.durationMicros, .int(micros))) }
            return .object(members)
        case .failed(let error, let reason, let micros):
            var members = [JSONMember(F.error, .string(error)), JSONMember(F.reason, .string(reason))]
            if let micros { members.append(JSONMember(F.durationMicros, .int(micros))) }
            return .object(members)
        }
    }
}
