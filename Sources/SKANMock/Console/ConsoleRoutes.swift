import HTTPCore

/// The QA console's pages and assets, all served from the binary: no build step, no CDN, so it
/// works offline, in Docker and on a laptop. Served without the admin token (the page asks for it
/// and sends it on its own calls); a strict Content-Security-Policy allows scripts from the server
/// itself only. The same pages serve every tenant: their links are relative, so under `/t/NAME`
/// they stay under it, and the scripts find the prefix from the page's address (`api.js`).
struct ConsoleRoutes: AdminRouteCollection {
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

    /// Open routes (no token): the page asks for the token and sends it on its own calls.
    func register(on group: inout AdminRouteGroup) {
        let (home, index) = (Self.page(Self.file("home.html")), Self.page(Self.file("index.html")))
        group.page("/") { _, _, _, writer in writer.send(home) }
        group.page("/favicon.ico") { _, _, _, writer in writer.send(Self.asset("favicon.svg")) }
        group.on(.get, "/ui", access: .open) { _, _, _, writer in writer.send(index) }
        group.on(.get, "/ui/{file}", access: .open) { _, parameters, _, writer in
            // Only the committed files: the name is a key, never a path on disk.
            let name = parameters["file"] ?? ""
            guard ConsoleAssets.files[name] != nil, name != "index.html", name != "home.html" else {
                writer.send(.jsonError("no console file \(name)", status: .notFound))
                return
            }
            writer.send(Self.asset(name))
        }
    }

    static func file(_ name: String) -> String { ConsoleAssets.files[name] ?? "" }

    /// The type each kind of console file is served as.
    static func contentType(_ name: String) -> String {
        switch name.split(separator: ".").last {
        case "js": "text/javascript; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "svg": "image/svg+xml"
        default: "text/html; charset=utf-8"
        }
    }

    static func asset(_ name: String) -> HTTPResponse { asset(file(name), type: contentType(name)) }

    static func page(_ html: String) -> HTTPResponse {
        var response = asset(html, type: "text/html; charset=utf-8")
        response.headers.set("Content-Security-Policy", contentSecurityPolicy)
        response.headers.set("X-Frame-Options", "DENY")
        response.headers.set("Referrer-Policy", "no-referrer")
        return response
    }

    static func asset(_ text: String, type: String) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers.set("Content-Type", type)
        headers.set("Cache-Control", "no-cache")
        headers.set("X-Content-Type-Options", "nosniff")
        return HTTPResponse(headers: headers, body: Array(text.utf8))
    }
}
