import Testing

@testable import SKANMock

/// Which side of the server a path goes to, decided on every request by bytes.
@Suite("Path dispatch")
struct PathDispatchTests {
    @Test(arguments: [
        ("/__admin", true), ("/__admin/", true), ("/__admin/requests", true), ("/", true), ("/favicon.ico", true),
        ("/__adminx", false), ("/__admi", false), ("/api/v2/conversion_value", false), ("/favicon.icon", false),
        ("", false), ("/favicon.ic", false)
    ])
    func adminPaths(path: String, isAdmin: Bool) {
        #expect(AppResponder.isAdmin(Substring(path)) == isAdmin)
    }

    @Test func postbackPaths() {
        #expect(PostbackReceiver.framework(at: "/.well-known/skadnetwork/report-attribution/") == .skan)
        #expect(PostbackReceiver.framework(at: "/.well-known/appattribution/report-attribution") == .aak)
        #expect(PostbackReceiver.framework(at: "/.well-known/other") == nil)
        #expect(PostbackReceiver.framework(at: "/api/v2/conversion_value") == nil)
    }
}
