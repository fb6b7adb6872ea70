/// A request to one of Singular's endpoints read once, at the time it is judged: its typed
/// parameters, the window they fall in and the findings met on the way. The service answers it,
/// `--replay` looks its recording up by it, and nothing after reads the query again.
public struct ParsedSKANRequest: Sendable {
    let head: Head
    /// What reading found, before the model or the device was consulted.
    let findings: [ValidationFinding]
    let family: Family

    /// The typed parameters of each endpoint family.
    enum Family: Sendable {
        case skan3(SKAN3Parameters)
        case skan4(SKAN4Parameters, WindowDecision)
        /// `refusal`: the answer Singular gives an S2S request missing what it requires.
        case s2s(SKAN4Parameters, WindowDecision, refusal: String?)
    }

    /// What every request has, whatever its family.
    struct Head: Sendable {
        let endpoint: SKANEndpoint
        let request: SKANRequest
        let nowMilliseconds: Int64
        let common: CommonParameters

        /// The device the request is about: the key of its state.
        var device: String? { common.device(for: endpoint) }

        /// The journal's `event` is `n`, but for a launch: that is a session, and its `n` the app's name.
        var event: String? { endpoint.isLaunch ? ConversionService.session : common.event }
    }

    public init(_ endpoint: SKANEndpoint, _ request: SKANRequest, nowMilliseconds now: Int64) {
        var reading = Reading(endpoint, request, nowMilliseconds: now)
        switch endpoint {
        case .skan3:
            family = .skan3(reading.skan3())
        case .skan4:
            let p = reading.skan4()
            family = .skan4(p, reading.window(for: p))
        case .launch, .event, .launch2, .event2:
            let s2s = reading.s2s()
            family = .s2s(s2s.skan, reading.window(for: s2s.skan), refusal: s2s.refusal)
        }
        head = reading.head
        findings = reading.findings
    }

    public var endpoint: SKANEndpoint { head.endpoint }
    public var request: SKANRequest { head.request }
    public var nowMilliseconds: Int64 { head.nowMilliseconds }
    /// The device the request is about: the key of its state.
    public var device: String? { head.device }
    var event: String? { head.event }

    /// Reading one request: what every family has, and the reader collecting findings. A family's
    /// parameters are read by its method into the caller's own value, so the service answering
    /// at once keeps them where they are (SKAN 4's are hundreds of bytes, copied per request
    /// otherwise); `ParsedSKANRequest` keeps them for an answer later.
    struct Reading {
        let head: Head
        private var reader: ParameterReader

        init(_ endpoint: SKANEndpoint, _ request: SKANRequest, nowMilliseconds now: Int64) {
            let common = CommonParameters(request.parameters)
            head = Head(endpoint: endpoint, request: request, nowMilliseconds: now, common: common)
            reader = ParameterReader(parameters: request.parameters, nowMilliseconds: now)
            ParsedSKANRequest.lengthFindings(endpoint, common, &reader)
        }

        var findings: [ValidationFinding] { reader.findings }

        mutating func skan3() -> SKAN3Parameters {
            let p = SKAN3Parameters.parse(&reader)
            ParsedSKANRequest.identityFindings(.skan3, head.common, &reader, path: head.request.path)
            return p
        }

        /// SKAN 4's parameters; `window(for:)` then decides their window.
        mutating func skan4() -> SKAN4Parameters {
            let p = SKAN4Parameters.parse(&reader)
            ParsedSKANRequest.identityFindings(.skan4, head.common, &reader, path: head.request.path)
            if p.firstCall == nil && !reader.has(p.firstCallName) {
                reader.add(
                    p.firstCallName, .missingParameter,
                    "\(p.firstCallName.name) is missing, so no window can be chosen; the snippet sets it in registerAppForAdNetworkAttribution"
                )
            }
            return p
        }

        /// The window SKAN 4 (or S2S) parameters fall in, with the findings that need it.
        mutating func window(for p: SKAN4Parameters) -> WindowDecision {
            WindowDecision(p, nowMilliseconds: head.nowMilliseconds, reader: &reader)
        }

        /// An S2S notification's parameters (its SKAN ones in `skan`); `window(for:)` then decides
        /// their window.
        mutating func s2s() -> S2SParameters {
            S2SParameters.parse(&reader, common: head.common, endpoint: head.endpoint, path: head.request.path)
        }
    }

    /// A device id or event name longer than the server keeps: said, and kept cut (`CommonParameters`).
    fileprivate static func lengthFindings(
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

    fileprivate static func identityFindings(
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
