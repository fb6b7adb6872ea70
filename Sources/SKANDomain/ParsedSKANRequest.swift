/// A request to one of Singular's endpoints read once, at the time it is judged: its typed
/// parameters, the window they fall in and the findings met on the way. The service answers it,
/// `--replay` looks its recording up by it, and nothing after reads the query again.
public struct ParsedSKANRequest: Sendable {
    public let endpoint: SKANEndpoint
    public let request: SKANRequest
    public let nowMilliseconds: Int64
    let common: CommonParameters
    /// What reading found, before the model or the device was consulted.
    let findings: [ValidationFinding]
    let family: Family

    /// The typed parameters of each endpoint family.
    enum Family: Sendable {
        case skan3(SKAN3Parameters)
        case skan4(WindowDecision)
        /// `refusal`: the answer Singular gives an S2S request missing what it requires.
        case s2s(WindowDecision, refusal: String?)
        /// `unmatched` and `postback`: not answered by the service.
        case none
    }

    public init(_ endpoint: SKANEndpoint, _ request: SKANRequest, nowMilliseconds now: Int64) {
        self.endpoint = endpoint
        self.request = request
        nowMilliseconds = now
        let common = CommonParameters(request.parameters)
        self.common = common
        var reader = ParameterReader(parameters: request.parameters, nowMilliseconds: now)
        if endpoint != .unmatched { Self.lengthFindings(endpoint, common, &reader) }
        switch endpoint {
        case .skan3:
            let p = SKAN3Parameters.parse(&reader)
            Self.identityFindings(.skan3, common, &reader, path: request.path)
            family = .skan3(p)
        case .skan4:
            let p = SKAN4Parameters.parse(&reader)
            Self.identityFindings(.skan4, common, &reader, path: request.path)
            if p.firstCall == nil && !reader.has(p.firstCallName) {
                reader.add(
                    p.firstCallName, .missingParameter,
                    "\(p.firstCallName.name) is missing, so no window can be chosen; the snippet sets it in registerAppForAdNetworkAttribution"
                )
            }
            family = .skan4(WindowDecision(p, nowMilliseconds: now, reader: &reader))
        case .launch, .event, .launch2, .event2:
            let s2s = S2SParameters.parse(&reader, common: common, endpoint: endpoint, path: request.path)
            family = .s2s(WindowDecision(s2s.skan, nowMilliseconds: now, reader: &reader), refusal: s2s.refusal)
        case .unmatched, .postback:
            family = .none
        }
        findings = reader.findings
    }

    /// The device the request is about: the key of its state.
    public var device: String? { common.device(for: endpoint) }

    /// The journal's `event` is `n`, but for a launch: that is a session, and its `n` the app's name.
    var event: String? { endpoint.isLaunch ? ConversionService.session : common.event }

    /// A device id or event name longer than the server keeps: said, and kept cut (`CommonParameters`).
    private static func lengthFindings(
        _ endpoint: SKANEndpoint, _ common: CommonParameters, _ reader: inout ParameterReader
    ) {
        let limit = CommonParameters.maxIdentifierBytes
        if let (name, bytes) = common.deviceTooLong(for: endpoint) {
            reader.add(
                name, .deviceIDTooLong,
                "\(name) is \(bytes) bytes; a device id is 36 characters (an IDFV is a UUID), so this one is likely not what the app meant to send; the server keeps this device's state under its first \(limit) bytes"
            )
        }
        // On a launch, `n` is the app's name, not an event.
        if let bytes = common.eventTooLong, !endpoint.isLaunch {
            reader.add(
                .event, .eventNameTooLong,
                "n is \(bytes) bytes; event names are short (__SESSION__, purchase), and the server counts this one under its first \(limit) bytes"
            )
        }
    }

    private static func identityFindings(
        _ endpoint: SKANEndpoint, _ common: CommonParameters, _ reader: inout ParameterReader, path: String
    ) {
        if !common.has(.apiKey) {
            reader.add(.apiKey, .missingParameter, MissingAPIKey.message(endpoint: endpoint, path: path))
        }
        if common.event == nil {
            reader.add(.event, .missingParameter, "n (the event name, __SESSION__ for a session) is missing")
        }
        if common.device == nil {
            reader.add(
                .idfv, .missingParameter,
                "no device id: send idfv (or sing, or idfa) so that the server can keep this device's state")
        }
    }
}
