import HTTPCore

/// The QA console's pages and assets, all served from the binary: no build step, no CDN, so it
/// works offline, in Docker and on a laptop. Served without the admin token (the page asks for it
/// and sends it on its own calls); a strict Content-Security-Policy allows scripts from the server
/// itself only.
struct ConsoleRoutes: AdminRouteCollection {
    /// `/t/NAME` for a tenant's console, whose pages link to its own; empty at the root.
    var tenantPrefix = ""

    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

    /// Open routes (no token): the page asks for the token and sends it on its own calls.
    func register(on group: inout AdminRouteGroup) {
        let (home, index) = (pageText("home.html"), pageText("index.html"))
        group.page("/") { _, _, writer in writer.send(Self.page(home)) }
        group.page("/favicon.ico") { _, _, writer in writer.send(Self.asset("favicon.svg")) }
        group.on(.get, "/ui", access: .open) { _, _, writer in writer.send(Self.page(index)) }
        group.on(.get, "/ui/{file}", access: .open) { _, parameters, writer in
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

    /// A page with its links to the console under the tenant's prefix (the scripts find it from
    /// the page's address, `api.js`).
    func pageText(_ name: String) -> String {
        let text = Self.file(name)
        return tenantPrefix.isEmpty ? text : text.replacing("\"/__admin/", with: "\"\(tenantPrefix)/__admin/")
    }

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
