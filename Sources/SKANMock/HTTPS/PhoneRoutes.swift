import HTTPCore
import SystemPOSIX

#if SKAN_MOCK_TLS
    import SKANPhoneSetup
#endif

/// The ports the server listens on, known once it has started (port 0 picks one).
final class ListeningPorts: Sendable {
    private let ports = Mutex<(http: Int, https: Int?)>((0, nil))

    func set(http: Int, https: Int?) { ports.withLock { $0 = (http, https) } }
    var http: Int { ports.withLock { $0.http } }
    var https: Int? { ports.withLock { $0.https } }
}

/// Phone set-up for HTTPS: the CA certificate, an iOS profile that installs it, and a page with
/// the steps and QR codes. Served without the admin token (they reveal only the public CA).
struct PhoneRoutes: AdminRouteCollection {
    let https: HTTPSService?
    let ports: ListeningPorts
    let listeningHost: String

    /// Under `/__admin`, open: they reveal only the public CA.
    static let paths = ["/ca.pem", "/ca.mobileconfig", "/phone"]

    func register(on group: inout AdminRouteGroup) {
        #if SKAN_MOCK_TLS
            group.on(.get, "/ca.pem", access: .open) { _, _, _, writer in
                writer.send(
                    answer { phone in
                        Self.text(phone.caPEM, type: PhoneSetup.caPEMContentType)
                    })
            }
            group.on(.get, "/ca.mobileconfig", access: .open) { _, _, _, writer in
                writer.send(
                    answer { phone in
                        var response = Self.text(phone.mobileconfig, type: PhoneSetup.mobileconfigContentType)
                        response.headers.set(
                            "Content-Disposition", "attachment; filename=\"skan-mock-ca.mobileconfig\"")
                        return response
                    })
            }
            group.on(.get, "/phone", access: .open) { _, _, _, writer in
                writer.send(
                    answer { phone in
                        var response = Self.text(
                            phone.page(listeningHost: listeningHost, httpPort: ports.http, httpsPort: ports.https ?? 0),
                            type: PhoneSetup.pageContentType)
                        response.headers.set(
                            "Content-Security-Policy",
                            "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"
                        )
                        return response
                    })
            }
        #else
            for path in Self.paths {
                group.on(.get, path, access: .open) { _, _, _, writer in writer.send(Self.httpsOff) }
            }
        #endif
    }

    #if SKAN_MOCK_TLS
        private func answer(_ body: (PhoneSetup) -> HTTPResponse) -> HTTPResponse {
            guard let phone = https?.phone else { return Self.httpsOff }
            return body(phone)
        }
    #endif

    static let httpsOff = HTTPResponse.jsonError(
        "HTTPS is off: start skan-mock with --https-port (docs/iphone-https.md)", status: .notFound)

    static func text(_ text: String, type: String) -> HTTPResponse {
        var response = HTTPResponse(body: Array(text.utf8))
        response.headers.set("Content-Type", type)
        response.headers.set("Cache-Control", "no-cache")
        return response
    }
}
