import SKANDomain
import Testing

@testable import SKANMock

/// The sender's `url`, read strictly before anything is sent (issue 47.1).
@Suite struct PostbackTargetTests {
    private func parse(_ url: String, _ framework: PostbackQuery.Framework = .skan) -> PostbackTarget? {
        try? PostbackTarget.parse(url, framework: framework).get()
    }

    private func reason(_ url: String) -> String {
        switch PostbackTarget.parse(url, framework: .skan) {
        case .success: "accepted"
        case .failure(let failure): failure.reason
        }
    }

    @Test func readsHostPortPathAndQuery() {
        #expect(
            parse("http://127.0.0.1:8080")
                == .init(host: "127.0.0.1", port: 8080, path: "/.well-known/skadnetwork/report-attribution/"))
        #expect(parse("http://[::1]:9/x?device=A", .aak) == .init(host: "::1", port: 9, path: "/x?device=A"))
        #expect(
            parse("http://example.com?device=A", .aak)
                == .init(
                    host: "example.com", port: 80, path: "/.well-known/appattribution/report-attribution/?device=A"))
        #expect(
            parse("HTTP://Example.com/a%20b/c;d?e=f/g?h#frag")
                == .init(host: "Example.com", port: 80, path: "/a%20b/c;d?e=f/g?h"))
    }

    /// Whatever a caller writes, nothing but RFC 3986's path and query characters reaches the
    /// request line: a CR, an LF, a space or a raw byte is refused, never sent.
    @Test func refusesWhatCouldSplitTheRequestLine() {
        let smuggled = "http://127.0.0.1:9/x HTTP/1.1\r\nX-Injected: 1\r\n\r\nDELETE /__admin/tenants/victim"
        #expect(reason(smuggled).hasPrefix("url has a space at offset 20"))
        #expect(reason("http://127.0.0.1:9/x\r\nX: 1").hasPrefix("url has a control byte at offset 20"))
        #expect(reason("http://127.0.0.1:9/x\ty").hasPrefix("url has a control byte"))
        #expect(reason("http://127.0.0.1:9/\u{7F}").hasPrefix("url has a control byte"))
        #expect(reason("http://127.0.0.1:9/é").hasPrefix("url has a non-ASCII byte"))
        #expect(reason("http://127.0.0.1:9/a\"b").hasPrefix("url has a path with characters"))
        #expect(reason("http://127.0.0.1:9/a<b>").hasPrefix("url has a path with characters"))
        #expect(reason("http://127.0.0.1:9/a%2").hasPrefix("url has a path with characters"))
        #expect(reason("http://127.0.0.1:9/a%zz").hasPrefix("url has a path with characters"))
        #expect(reason("http://127.0.0.1:9/a?b|c").hasPrefix("url has a query with characters"))
        #expect(reason("http://127.0.0.1:9/" + String(repeating: "a", count: 9_000)).hasPrefix("url is longer than"))
    }

    @Test func refusesOtherSchemesCredentialsAndBadAuthorities() {
        #expect(reason("https://example.com").hasPrefix("url is https://, but the sender speaks plain HTTP only"))
        #expect(reason("file:///etc/passwd").hasPrefix("url must be an http:// URL"))
        #expect(reason("gopher://127.0.0.1:70/").hasPrefix("url must be an http:// URL"))
        #expect(reason("127.0.0.1:9/x").hasPrefix("url must be an http:// URL"))
        #expect(reason("http://user:secret@example.com/").hasPrefix("url carries credentials"))
        #expect(reason("http://127.0.0.1:0").hasPrefix("url has a bad port"))
        #expect(reason("http://127.0.0.1:65536").hasPrefix("url has a bad port"))
        #expect(reason("http://127.0.0.1:+80").hasPrefix("url has a bad port"))
        #expect(reason("http://127.0.0.1:000080").hasPrefix("url has a bad port"))
        #expect(reason("http://[::1").hasPrefix("url has an unclosed ["))
        #expect(reason("http://[example.com]:80/").hasPrefix("url has [example.com], which is not an IPv6 address"))
        #expect(reason("http://[::1]x/").hasPrefix("url has text after ]"))
        #expect(reason("http://exa%6dple.com/").hasPrefix("url has a host with characters"))
        #expect(reason("http:///x").hasPrefix("url needs a host"))
        #expect(reason("http://:80/x").hasPrefix("url has a host that is neither"))
    }

    /// The only paths the sender may reach on this server itself: Apple's receiver paths, at the
    /// root or under one tenant, exactly.
    @Test func knowsTheReceiverPaths() {
        func receiver(_ url: String) -> Bool { parse(url)?.isReceiverPath ?? false }
        #expect(receiver("http://127.0.0.1:9"))
        #expect(receiver("http://127.0.0.1:9/.well-known/appattribution/report-attribution?device=A"))
        #expect(receiver("http://127.0.0.1:9/t/qa/.well-known/skadnetwork/report-attribution/"))
        #expect(!receiver("http://127.0.0.1:9/t/b/__admin/reset"))
        #expect(!receiver("http://127.0.0.1:9/.well-known/skadnetwork/report-attribution/../../__admin/reset"))
        #expect(!receiver("http://127.0.0.1:9/t//.well-known/skadnetwork/report-attribution/"))
        #expect(!receiver("http://127.0.0.1:9/t/a/t/b/.well-known/skadnetwork/report-attribution/"))
    }
}
