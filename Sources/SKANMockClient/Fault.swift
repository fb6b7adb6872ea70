/// One fault rule for `setFaults` (`PUT /__admin/faults`): what to do to which endpoint's requests,
/// and for how many of them.
public struct Fault: Sendable, Equatable {
    public var endpoint: String
    public var type: String
    public var status: Int?
    public var delayMilliseconds: ClosedRange<Int>?
    public var times: Int?
    public var probability: Double?
    public var seed: Int?

    public init(
        endpoint: String = "*", type: String, status: Int? = nil, delayMilliseconds: ClosedRange<Int>? = nil,
        times: Int? = nil, probability: Double? = nil, seed: Int? = nil
    ) {
        self.endpoint = endpoint
        self.type = type
        self.status = status
        self.delayMilliseconds = delayMilliseconds
        self.times = times
        self.probability = probability
        self.seed = seed
    }

    /// Answer this HTTP status with an error body.
    public static func status(_ code: Int, endpoint: String = "*", times: Int? = nil) -> Fault {
        Fault(endpoint: endpoint, type: "status", status: code, times: times)
    }

    /// Answer normally after a delay.
    public static func delay(milliseconds: ClosedRange<Int>, endpoint: String = "*", times: Int? = nil) -> Fault {
        Fault(endpoint: endpoint, type: "delay", delayMilliseconds: milliseconds, times: times)
    }

    /// `malformed`, `empty` or `drop`.
    public static func kind(_ type: String, endpoint: String = "*", times: Int? = nil) -> Fault {
        Fault(endpoint: endpoint, type: type, times: times)
    }

    var json: MockJSON {
        var o: [String: MockJSON] = ["endpoint": .string(endpoint), "type": .string(type)]
        if let status { o["status"] = .number(Double(status)) }
        if let d = delayMilliseconds {
            o["delay_ms"] =
                d.lowerBound == d.upperBound
                ? .number(Double(d.lowerBound)) : .array([.number(Double(d.lowerBound)), .number(Double(d.upperBound))])
        }
        if let times { o["times"] = .number(Double(times)) }
        if let probability { o["probability"] = .number(probability) }
        if let seed { o["seed"] = .number(Double(seed)) }
        return .object(o)
    }
}
