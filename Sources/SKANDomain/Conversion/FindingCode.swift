/// Stable identifiers for what the server noticed about a request. Tests assert on these, so a code
/// is never renamed; the message may be reworded.
///
/// A code is its spelling (as swift-service-lifecycle's error codes are): each is written once,
/// below, and one read from a journal line is that spelling, whether or not this version lists
/// it, so no code can read back as another (a newer version's code is kept as written, `isKnown`
/// false).
public struct FindingCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The code as the journal, the admin API and the console spell it.
    public let rawValue: String

    /// The code spelled `rawValue`, known to this version or not.
    public init(rawValue: String) { self.rawValue = rawValue }

    private init(_ rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    /// A required parameter is absent or empty.
    public static let missingParameter = FindingCode("missing_parameter")
    /// An S2S platform (`p`) Singular does not take (`p=com.example.game`): answered as Singular
    /// does, `invalid platform: ...`.
    public static let invalidPlatform = FindingCode("invalid_platform")
    /// A parameter that must be an integer is not one ("3.5", "abc", "0x10").
    public static let invalidInteger = FindingCode("invalid_integer")
    /// A fine (conversion) value outside 0...63.
    public static let fineValueOutOfRange = FindingCode("fine_value_out_of_range")
    /// A coarse value outside 0...2.
    public static let coarseValueOutOfRange = FindingCode("coarse_value_out_of_range")
    /// A revenue parameter that is not JSON, or JSON but not an object.
    public static let invalidRevenueJSON = FindingCode("invalid_revenue_json")
    /// A device id over `CommonParameters.maxIdentifierBytes` (256): its state is kept under its
    /// first 256 bytes.
    public static let deviceIDTooLong = FindingCode("device_id_too_long")
    /// An event name (`n`) over 256 bytes: counted under its first 256 bytes.
    public static let eventNameTooLong = FindingCode("event_name_too_long")
    /// A revenue object with more currencies than ISO 4217 has (`Revenue.maxCurrencies`): the
    /// first ones are read.
    public static let tooManyCurrencies = FindingCode("too_many_currencies")
    /// A revenue key that is not a 3-letter upper-case currency code.
    public static let invalidCurrencyCode = FindingCode("invalid_currency_code")
    /// A revenue amount that is not a non-negative number.
    public static let invalidRevenueAmount = FindingCode("invalid_revenue_amount")
    /// A revenue object that gives one currency more than once: the last is used.
    public static let duplicateCurrency = FindingCode("duplicate_currency")
    /// A currency the model has no exchange rate for; it counts as 0.
    public static let unknownCurrency = FindingCode("unknown_currency")
    /// A timestamp that looks like milliseconds (> 10^11) where Unix seconds are expected.
    public static let timestampInMilliseconds = FindingCode("timestamp_in_milliseconds")
    /// A timestamp no clock gives in seconds or milliseconds (microseconds, nanoseconds, or beyond
    /// ±10^14): ignored, so no window or postback is computed from it.
    public static let timestampImpossible = FindingCode("timestamp_impossible")
    /// A timestamp later than the server's clock (plus 5 minutes of tolerance).
    public static let timestampInFuture = FindingCode("timestamp_in_future")
    /// A timestamp before 2014-01-01, older than any SKAdNetwork; 0 usually means "never set".
    public static let timestampBefore2014 = FindingCode("timestamp_before_2014")
    /// The last-call timestamp is earlier than the first-call timestamp.
    public static let lastCallBeforeFirstCall = FindingCode("last_call_before_first_call")
    /// A pN_* parameter for a window that has not begun yet.
    public static let windowNotBegun = FindingCode("window_not_begun")
    /// A pN_window_lock timestamp outside window N.
    public static let windowLockOutsideWindow = FindingCode("window_lock_outside_window")
    /// A window's revenue in some currency exceeds the total revenue in that currency.
    public static let windowRevenueExceedsTotal = FindingCode("window_revenue_exceeds_total")
    /// The fine value changed after p0 ended (iOS ignores it; clients keep sending the last p0 value).
    public static let fineValueChangedAfterP0 = FindingCode("fine_value_changed_after_p0")
    /// A SKAN 3 conversion value lower than one this device sent before.
    public static let skan3ValueDecreased = FindingCode("skan3_value_decreased")
    /// A conversion-value request in a window that was already locked.
    public static let updateAfterWindowLock = FindingCode("update_after_window_lock")
    /// A path that no endpoint serves (a wrong `SINGULAR_API_URL`, a typo in a back end's route).
    public static let unknownEndpoint = FindingCode("unknown_endpoint")
    /// A method the endpoint does not take (it takes GET, HEAD and POST).
    public static let methodNotAllowed = FindingCode("method_not_allowed")
    /// A body that is not a form (a JSON body, say): Singular reads parameters from the query string.
    public static let unsupportedBody = FindingCode("unsupported_body")
    /// The server answered `408` before the endpoint saw the request: its head or body did not
    /// arrive in time (a client that re-sends a POST without its body, say).
    public static let requestTimeout = FindingCode("request_timeout")
    /// The server answered `413`, `414` or `431`: a body, target or header section over its limit.
    public static let requestTooLarge = FindingCode("request_too_large")
    /// The client closed the connection in the middle of a request to an endpoint's path (a POST
    /// abandoned halfway): nothing was answered (`response.status` 0).
    public static let requestAbandoned = FindingCode("request_abandoned")
    /// The server answered `400`: the request was not valid HTTP/1.1.
    public static let malformedRequest = FindingCode("malformed_request")
    /// A postback's value that no entry of the loaded model produces (the app set its own).
    public static let valueNotInModel = FindingCode("value_not_in_model")
    /// A parameter's value over the journal's limit per value: kept cut, with its full length.
    public static let valueTruncated = FindingCode("value_truncated")
    /// `--upstream`: the upstream answered something a client would apply differently (value,
    /// coarse value, lock, ok or error).
    public static let differsFromUpstream = FindingCode("differs_from_upstream")
    /// `--upstream`: the upstream could not be reached (refused, reset, name, certificate).
    public static let upstreamUnreachable = FindingCode("upstream_unreachable")
    /// `--upstream`: the upstream did not answer within `--upstream-timeout`.
    public static let upstreamTimeout = FindingCode("upstream_timeout")
    /// `--upstream` shadow: not sent, because as many requests as skan-mock keeps were already
    /// waiting for a slower upstream (the client still got the model's answer at once).
    public static let upstreamSkipped = FindingCode("upstream_skipped")
    /// `--upstream`: the upstream answered something skan-mock will not pass on (over the size
    /// limit, an interim or impossible status, a body on 204/304); a proxy answers 502 instead.
    public static let upstreamUnusable = FindingCode("upstream_unusable")
    /// `--upstream`: the request already came through a skan-mock (its `Via` header), so
    /// forwarding it again would loop; it is not forwarded.
    public static let upstreamLoop = FindingCode("upstream_loop")
    /// `--replay`: the replay file has no answer (left) for this device and request state, so the
    /// model answered it.
    public static let notRecorded = FindingCode("not_recorded")
    /// A body POSTed to a postback path that is not a postback (answered 400, naming why).
    public static let postbackMalformed = FindingCode("postback_malformed")
    /// A received postback whose signature does not verify with the key it names (or, for
    /// SKAdNetwork, with any known key): Apple's steps say not to count it.
    public static let postbackSignatureInvalid = FindingCode("postback_signature_invalid")

    /// Every code this version writes, in the order above (`FindingTests` checks it against the
    /// declarations).
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

    /// Whether this version writes the code (one read from a newer version's line is not).
    public var isKnown: Bool { Self.known.contains(self) }

    private static let known = Set(allCases)
}

extension FindingCode {
    /// The upstream's failures: no answer to compare with (`skan-mock compare` counts them apart).
    public static let upstreamFailures: [FindingCode] = UpstreamFailure.allCases.map(\.findingCode)
    /// What comparing with an upstream finds: a difference, or one of its failures.
    public static let upstreamComparison: [FindingCode] = [.differsFromUpstream] + upstreamFailures
}
