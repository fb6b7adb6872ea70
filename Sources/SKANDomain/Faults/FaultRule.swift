/// One way to break an endpoint on purpose, so a client's error paths can be exercised: what goes
/// wrong, on which endpoint, and for which requests.
public struct FaultRule: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// Answer normally, but only after a delay (uniform within the range, in milliseconds).
        case delay(ClosedRange<Int>)
        /// Answer with this HTTP status and an error body.
        case status(Int)
        /// Answer 200 with a body that is not valid JSON.
        case malformedBody
        /// Answer 200 with an empty body.
        case emptyBody
        /// Close the connection without answering.
        case dropConnection

        public var name: String {
            switch self {
            case .delay: "delay"
            case .status: "status"
            case .malformedBody: "malformed"
            case .emptyBody: "empty"
            case .dropConnection: "drop"
            }
        }
    }

    /// Which requests the rule applies to.
    public enum Trigger: Sendable, Equatable {
        /// Every request to the endpoint.
        case always
        /// The next N requests, then the rule is spent.
        case next(Int)
        /// Each request with this probability, drawn from a generator seeded with `seed`: the same
        /// seed gives the same sequence of faulted and clean requests, run after run.
        case probability(Double, seed: UInt64)
    }

    /// nil: every endpoint.
    public var endpoint: SKANEndpoint?
    public var kind: Kind
    public var trigger: Trigger

    public init(endpoint: SKANEndpoint?, kind: Kind, trigger: Trigger = .always) {
        self.endpoint = endpoint
        self.kind = kind
        self.trigger = trigger
    }

    /// The rule as it is written in a model file or `PUT /__admin/faults`.
    public var json: JSONValue {
        var members: [JSONMember] = [
            JSONMember("endpoint", .string(endpoint?.rawValue ?? "*")), JSONMember("type", .string(kind.name))
        ]
        switch kind {
        case .delay(let range):
            members.append(
                JSONMember(
                    "delay_ms",
                    range.lowerBound == range.upperBound
                        ? .int(Int64(range.lowerBound))
                        : .array([.int(Int64(range.lowerBound)), .int(Int64(range.upperBound))])))
        case .status(let code):
            members.append(JSONMember("status", .int(Int64(code))))
        case .malformedBody, .emptyBody, .dropConnection:
            break
        }
        switch trigger {
        case .always: break
        case .next(let count): members.append(JSONMember("times", .int(Int64(count))))
        case .probability(let p, let seed):
            members.append(JSONMember("probability", .double(p)))
            members.append(JSONMember("seed", .int(Int64(bitPattern: seed))))
        }
        return .object(members)
    }
}
