import HTTPCore
import SKANDomain

/// Stage 1 of a request to Singular's side: the request read once, into everything the later
/// stages use (the route and endpoint, the parameters with what an alias adds, the journal's own
/// members), and the first reason, if any, that it cannot be answered at all.
/// A class: every stage and closure after this one holds it, and a struct this size (the request,
/// its parameters, the members) cost 16 copies and their retains per request.
final class SingularExchange: Sendable {
    /// The request as received: a proxy or shadow forwards it as it came.
    let http: HTTPRequest
    /// When it arrived (monotonic microseconds): every duration counts from here.
    let started: Int64
    let path: String
    let route: SingularRoutes.Route?
    /// The parameters as received (query, then a form body), with an alias's additions.
    let request: SKANRequest
    /// The body is a form, or empty: anything else is refused (`admission`), except on the S2S
    /// endpoints (`bodyFinding`).
    let bodyIsForm: Bool
    /// A body Singular does not read (JSON, say) sent to an S2S endpoint. Singular reads the query
    /// string alone and answers that, 200 whatever it says, so the request is answered from its
    /// query as Singular would, and this finding goes into its entry (`ExchangeRecorder`).
    let bodyFinding: ValidationFinding?
    /// What every entry of this request carries before its answer's members: the time-travel
    /// offset, `tls`, and `route_params` when an alias added some.
    let members: [JSONMember]
    private let upstreamAdded: [RouteAlias.Parameter]

    /// `path`: the path the tenant reads, when the caller has it (after `/t/NAME`); else the request's.
    init(
        _ http: HTTPRequest, path routedPath: Substring? = nil, routes: SingularRoutes, clockOffsetSeconds: Int64,
        started: Int64
    ) {
        self.http = http
        self.started = started
        path = String(routedPath ?? http.path)
        route = routes.route(at: path)
        let query = http.query
        bodyIsForm = http.body.isEmpty || Self.isFormEncoded(http.headers["Content-Type"])
        let formBody = bodyIsForm ? http.body : []
        var parameters = RequestParameters(reservingBytes: query.utf8.count + formBody.count)
        FormURLEncoding.forEachField(query) { parameters.append(name: $0, value: $1) }
        if !formBody.isEmpty { FormURLEncoding.forEachField(formBody) { parameters.append(name: $0, value: $1) } }
        // An alias adds what the app's back end would (the client's own value wins), and the
        // journal says which were added, apart from the parameters as sent.
        let added = parameters.add(route?.added ?? [])
        // The upstream gets what the alias adds whether or not the client sent it too, as the back
        // end would send it; a copy only when its source came.
        upstreamAdded = (route?.added ?? []).compactMap { $0.resolved(in: parameters) }
        request = SKANRequest(
            method: http.method.rawValue, path: path, remote: http.remoteAddress, parameters: parameters)
        bodyFinding =
            bodyIsForm || route?.endpoint.isS2S != true || !SingularEndpoints.allowedMethods.contains(http.method)
            ? nil
            : ValidationFinding(
                param: "Content-Type", code: .unsupportedBody,
                message: Self.bodyReason(http.headers["Content-Type"], path: path)
                    + "; Singular ignores it and answers the query string alone, as this answer does")
        members =
            [JournalRecord.clockOffsetMember(clockOffsetSeconds), JournalRecord.tlsMember(http.tlsVersion)]
            + (added.isEmpty ? [] : [JournalRecord.routeParamsMember(added.map { ($0.name, $0.value) })])
    }

    /// The endpoint the path serves; nil for a path no endpoint serves.
    var endpoint: SKANEndpoint? { route?.endpoint }

    /// What a route alias adds, with copied values resolved, for the upstream.
    var added: [RouteAlias.Parameter] { upstreamAdded }

    /// Microseconds since the request arrived.
    var elapsedMicros: Int64 { MonotonicClock.microseconds() - started }

    /// Whether an endpoint answers the request.
    enum Admission: Sendable {
        case admitted(SKANEndpoint)
        /// An HTTP-level refusal instead of an answer.
        case refused(SingularAnswer.Refusal)
    }

    /// The endpoint that answers the request, or why it is refused, checked in this order: the
    /// route (a wrong URL in the app or its back end), the method, the body type (Singular
    /// documents query parameters; a JSON body is a client mistake, refused on the SKAN endpoints
    /// and ignored, as Singular ignores it, on the S2S ones).
    func admission(listing: String) -> Admission {
        guard let endpoint else {
            let reason = "no Singular endpoint at \(path); skan-mock serves \(listing)"
            return .refused(
                .init(
                    endpoint: nil, status: .notFound, reason: reason,
                    finding: ValidationFinding(param: "path", code: .unknownEndpoint, message: reason)))
        }
        guard SingularEndpoints.allowedMethods.contains(http.method) else {
            let reason =
                "method \(http.method) not allowed on \(path); Singular's endpoints take GET (and POST with a form body)"
            return .refused(
                .init(
                    endpoint: endpoint, status: .methodNotAllowed, reason: reason,
                    finding: ValidationFinding(param: "method", code: .methodNotAllowed, message: reason),
                    allow: "GET, HEAD, POST"))
        }
        // An S2S endpoint answers from the query, as Singular does (`bodyFinding`).
        guard bodyIsForm || endpoint.isS2S else {
            let reason = Self.bodyReason(http.headers["Content-Type"], path: path)
            return .refused(
                .init(
                    endpoint: endpoint, status: .unsupportedMediaType, reason: reason,
                    finding: ValidationFinding(param: "Content-Type", code: .unsupportedBody, message: reason)))
        }
        return .admitted(endpoint)
    }

    /// What is wrong with a body that is not a form, and where the parameters go instead.
    static func bodyReason(_ contentType: String?, path: String) -> String {
        "the request has a body of type \(contentType ?? "no Content-Type"); Singular's endpoints take their parameters in the query string (GET \(path)?a=KEY&...), or as an application/x-www-form-urlencoded POST body"
    }

    /// `"tls": "TLSv1.3"` for a request that came over HTTPS, `null` for plain HTTP.
    static func tls(_ version: String?) -> JSONMember {
        JournalRecord.tlsMember(version)
    }

    /// A form body says so, or says nothing (as `curl -d` and many scripts do not).
    static func isFormEncoded(_ contentType: String?) -> Bool {
        guard let contentType else { return true }
        let mediaType = contentType.split(separator: ";").first?.trimmingASCIIWhitespace() ?? ""
        return mediaType.lowercased() == "application/x-www-form-urlencoded"
    }
}
