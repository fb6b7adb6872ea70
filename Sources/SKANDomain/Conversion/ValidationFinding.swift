/// Stable identifiers for what the server noticed about a request. Tests assert on these, so a code
/// is never renamed; the message may be reworded.
public enum FindingCode: Sendable, Hashable, CaseIterable {
    /// A required parameter is absent or empty.
    case missingParameter
    /// An S2S platform (`p`) Singular does not take (`p=com.example.game`): answered as Singular
    /// does, `invalid platform: ...`.
    case invalidPlatform
    /// A parameter that must be an integer is not one ("3.5", "abc", "0x10").
    case invalidInteger
    /// A fine (conversion) value outside 0...63.
    case fineValueOutOfRange
    /// A coarse value outside 0...2.
    case coarseValueOutOfRange
    /// A revenue parameter that is not JSON, or JSON but not an object.
    case invalidRevenueJSON
    /// A device id over `CommonParameters.maxIdentifierBytes` (256): its state is kept under its
    /// first 256 bytes.
    case deviceIDTooLong
    /// An event name (`n`) over 256 bytes: counted under its first 256 bytes.
    case eventNameTooLong
    /// A revenue object with more currencies than ISO 4217 has (`Revenue.maxCurrencies`): the
    /// first ones are read.
    case tooManyCurrencies
    /// A revenue key that is not a 3-letter upper-case currency code.
    case invalidCurrencyCode
    /// A revenue amount that is not a non-negative number.
    case invalidRevenueAmount
    /// A revenue object that gives one currency more than once: the last is used.
    case duplicateCurrency
    /// A currency the model has no exchange rate for; it counts as 0.
    case unknownCurrency
    /// A timestamp that looks like milliseconds (> 10^11) where Unix seconds are expected.
    case timestampInMilliseconds
    /// A timestamp no clock gives in seconds or milliseconds (microseconds, nanoseconds, or beyond
    /// ±10^14): ignored, so no window or postback is computed from it.
    case timestampImpossible
    /// A timestamp later than the server's clock (plus 5 minutes of tolerance).
    case timestampInFuture
    /// A timestamp before 2014-01-01, older than any SKAdNetwork; 0 usually means "never set".
    case timestampBefore2014
    /// The last-call timestamp is earlier than the first-call timestamp.
    case lastCallBeforeFirstCall
    /// A pN_* parameter for a window that has not begun yet.
    case windowNotBegun
    /// A pN_window_lock timestamp outside window N.
    case windowLockOutsideWindow
    /// A window's revenue in some currency exceeds the total revenue in that currency.
    case windowRevenueExceedsTotal
    /// The fine value changed after p0 ended (iOS ignores it; clients keep sending the last p0 value).
    case fineValueChangedAfterP0
    /// A SKAN 3 conversion value lower than one this device sent before.
    case skan3ValueDecreased
    /// A conversion-value request in a window that was already locked.
    case updateAfterWindowLock
    /// A path that no endpoint serves (a wrong `SINGULAR_API_URL`, a typo in a back end's route).
    case unknownEndpoint
    /// A method the endpoint does not take (it takes GET, HEAD and POST).
    case methodNotAllowed
    /// A body that is not a form (a JSON body, say): Singular reads parameters from the query string.
    case unsupportedBody
    /// The server answered `408` before the endpoint saw the request: its head or body did not
    /// arrive in time (a client that re-sends a POST without its body, say).
    case requestTimeout
    /// The server answered `413`, `414` or `431`: a body, target or header section over its limit.
    case requestTooLarge
    /// The client closed the connection in the middle of a request to an endpoint's path (a POST
    /// abandoned halfway): nothing was answered (`response.status` 0).
    case requestAbandoned
    /// The server answered `400`: the request was not valid HTTP/1.1.
    case malformedRequest
    /// A postback's value that no entry of the loaded model produces (the app set its own).
    case valueNotInModel
    /// A parameter's value over the journal's limit per value: kept cut, with its full length.
    case valueTruncated
    /// `--upstream`: the upstream answered something a client would apply differently (value,
    /// coarse value, lock, ok or error).
    case differsFromUpstream
    /// `--upstream`: the upstream could not be reached (refused, reset, name, certificate).
    case upstreamUnreachable
    /// `--upstream`: the upstream did not answer within `--upstream-timeout`.
    case upstreamTimeout
    /// `--upstream` shadow: not sent, because as many requests as skan-mock keeps were already
    /// waiting for a slower upstream (the client still got the model's answer at once).
    case upstreamSkipped
    /// `--upstream`: the upstream answered something skan-mock will not pass on (over the size
    /// limit, an interim or impossible status, a body on 204/304); a proxy answers 502 instead.
    case upstreamUnusable
    /// `--upstream`: the request already came through a skan-mock (its `Via` header), so
    /// forwarding it again would loop; it is not forwarded.
    case upstreamLoop
    /// `--replay`: the replay file has no answer (left) for this device and request state, so the
    /// model answered it.
    case notRecorded
    /// A body POSTed to a postback path that is not a postback (answered 400, naming why).
    case postbackMalformed
    /// A received postback whose signature does not verify with the key it names (or, for
    /// SKAdNetwork, with any known key): Apple's steps say not to count it.
    case postbackSignatureInvalid
    /// A code this version does not know, read from a journal line a newer version wrote: kept as
    /// written, never dropped.
    case unknown(String)

    /// Every code this version writes (`unknown` is none of them).
    public static let allCases: [FindingCode] = [
        .missingParameter,
        .invalidPlatform,
        .invalidInteger,
        .fineValueOutOfRange,
        .coarseValueOutOfRange,
        .invalidRevenueJSON,
        .deviceIDTooLong,
        .eventNameTooLong,
        .tooManyCurrencies,
        .invalidCurrencyCode,
        .invalidRevenueAmount,
        .duplicateCurrency,
        .unknownCurrency,
        .timestampInMilliseconds,
        .timestampImpossible,
        .timestampInFuture,
        .timestampBefore2014,
        .lastCallBeforeFirstCall,
        .windowNotBegun,
        .windowLockOutsideWindow,
        .windowRevenueExceedsTotal,
        .fineValueChangedAfterP0,
        .skan3ValueDecreased,
        .updateAfterWindowLock,
        .unknownEndpoint,
        .methodNotAllowed,
        .unsupportedBody,
        .requestTimeout,
        .requestTooLarge,
        .requestAbandoned,
        .malformedRequest,
        .valueNotInModel,
        .valueTruncated,
        .differsFromUpstream,
        .upstreamUnreachable,
        .upstreamTimeout,
        .upstreamSkipped,
        .upstreamUnusable,
        .upstreamLoop,
        .notRecorded,
        .postbackMalformed,
        .postbackSignatureInvalid
    ]

    /// The code as the journal, the admin API and the console spell it.
    public var rawValue: String {
        switch self {
        case .missingParameter: "missing_parameter"
        case .invalidPlatform: "invalid_platform"
        case .invalidInteger: "invalid_integer"
        case .fineValueOutOfRange: "fine_value_out_of_range"
        case .coarseValueOutOfRange: "coarse_value_out_of_range"
        case .invalidRevenueJSON: "invalid_revenue_json"
        case .deviceIDTooLong: "device_id_too_long"
        case .eventNameTooLong: "event_name_too_long"
        case .tooManyCurrencies: "too_many_currencies"
        case .invalidCurrencyCode: "invalid_currency_code"
        case .invalidRevenueAmount: "invalid_revenue_amount"
        case .duplicateCurrency: "duplicate_currency"
        case .unknownCurrency: "unknown_currency"
        case .timestampInMilliseconds: "timestamp_in_milliseconds"
        case .timestampImpossible: "timestamp_impossible"
        case .timestampInFuture: "timestamp_in_future"
        case .timestampBefore2014: "timestamp_before_2014"
        case .lastCallBeforeFirstCall: "last_call_before_first_call"
        case .windowNotBegun: "window_not_begun"
        case .windowLockOutsideWindow: "window_lock_outside_window"
        case .windowRevenueExceedsTotal: "window_revenue_exceeds_total"
        case .fineValueChangedAfterP0: "fine_value_changed_after_p0"
        case .skan3ValueDecreased: "skan3_value_decreased"
        case .updateAfterWindowLock: "update_after_window_lock"
        case .unknownEndpoint: "unknown_endpoint"
        case .methodNotAllowed: "method_not_allowed"
        case .unsupportedBody: "unsupported_body"
        case .requestTimeout: "request_timeout"
        case .requestTooLarge: "request_too_large"
        case .requestAbandoned: "request_abandoned"
        case .malformedRequest: "malformed_request"
        case .valueNotInModel: "value_not_in_model"
        case .valueTruncated: "value_truncated"
        case .differsFromUpstream: "differs_from_upstream"
        case .upstreamUnreachable: "upstream_unreachable"
        case .upstreamTimeout: "upstream_timeout"
        case .upstreamSkipped: "upstream_skipped"
        case .upstreamUnusable: "upstream_unusable"
        case .upstreamLoop: "upstream_loop"
        case .notRecorded: "not_recorded"
        case .postbackMalformed: "postback_malformed"
        case .postbackSignatureInvalid: "postback_signature_invalid"
        case .unknown(let code): code
        }
    }

    /// The code spelled `rawValue`: a known one, or `unknown` with it.
    public init(rawValue: String) { self = Self.byName[rawValue] ?? .unknown(rawValue) }

    private static let byName = Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue, $0) })
}

extension FindingCode {
    /// The upstream's failures: no answer to compare with (`skan-mock compare` counts them apart).
    public static let upstreamFailures: [FindingCode] = UpstreamFailure.allCases.map(\.findingCode)
    /// What comparing with an upstream finds: a difference, or one of its failures.
    public static let upstreamComparison: [FindingCode] = [.differsFromUpstream] + upstreamFailures
}

/// One thing the server noticed about a request: which parameter, a stable code, and a message a
/// developer understands without reading the spec.
public struct ValidationFinding: Sendable, Equatable, CustomStringConvertible {
    public var param: String
    public var code: FindingCode
    public var message: String

    public init(param: String, code: FindingCode, message: String) {
        self.param = param
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue) (\(param)): \(message)" }

    /// `{"param":...,"code":...,"message":...}` as in the journal.
    public var json: JSONValue {
        .object([
            JSONMember("param", .string(param)), JSONMember("code", .string(code.rawValue)),
            JSONMember("message", .string(message))
        ])
    }

    func write(to writer: inout JSONWriter) {
        writer.raw("{\"param\":")
        writer.write(param)
        writer.raw(",\"code\":\"")
        writer.append(contentsOf: code.rawValue.utf8)
        writer.raw("\",\"message\":")
        writer.write(message)
        writer.raw("}")
    }
}
