import HTTPCore

/// With `--admin-token`, admin calls need `Authorization: Bearer <token>`; Singular's endpoints
/// stay open, as an app under test cannot be taught to send a token. `AdminRouteGroup` asks it for
/// every admin route that is not open.
struct AdminAuthorization: Sendable {
    let token: String

    /// The answer to a call without the right token: it names the header, so a script's author
    /// need not look it up.
    static var refusal: HTTPResponse {
        var response = HTTPResponse.jsonError(
            "missing or wrong admin token: send the header Authorization: Bearer TOKEN, TOKEN being the server's --admin-token (SKAN_MOCK_ADMIN_TOKEN)",
            status: .unauthorized)
        response.headers.set("WWW-Authenticate", "Bearer realm=\"skan-mock admin\"")
        return response
    }

    func admits(_ request: HTTPRequest) -> Bool {
        guard let value = request.headers["Authorization"] else {
            // EventSource cannot send headers: the event stream alone takes `?token=`.
            guard request.path == "/__admin/events",
                let token = FormURLEncoding.pairs(request.query).last(where: { $0.name == "token" })?.value
            else { return false }
            return constantTimeEquals(Array(token.utf8), Array(self.token.utf8))
        }
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return false }
        return constantTimeEquals(Array(parts[1].utf8), Array(token.utf8))
    }

    /// A comparison whose time does not reveal how much of the token was right.
    private func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
