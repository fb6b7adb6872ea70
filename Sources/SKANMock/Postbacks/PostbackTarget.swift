import SKANDomain
import SystemPOSIX

/// Where the postback sender POSTs: a caller's `url` read strictly as an RFC 3986 `http` URL, once,
/// before anything is sent. The caller's text reaches the request line only as a path and query
/// made of the characters RFC 3986 allows there, so no URL can end the line early, add a header or
/// smuggle a second request (issue 47.1).
struct PostbackTarget: Sendable, Equatable {
    /// A name, or an IP address without brackets.
    var host: String
    var port: Int
    /// The path and query, as sent on the request line.
    var path: String

    /// The longest `url` read (a browser's practical limit): a longer one is refused, not sent.
    static let maxLength = 8_192

    /// `url` as a target, the framework's well-known path when it has none, or why not. The
    /// fragment, which HTTP never sends, is left out.
    static func parse(_ url: String, framework: PostbackQuery.Framework) -> Result<PostbackTarget, AdminQueryError> {
        func refuse(_ reason: String) -> Result<PostbackTarget, AdminQueryError> {
            .failure(AdminQueryError(reason: "url \(reason)"))
        }
        guard url.utf8.count <= maxLength else { return refuse("is longer than \(maxLength) bytes") }
        if let offset = url.utf8.firstIndex(where: { $0 <= 0x20 || $0 >= 0x7F }) {
            let byte = url.utf8[offset]
            let position = url.utf8.distance(from: url.utf8.startIndex, to: offset)
            let what = byte == 0x20 ? "a space" : byte >= 0x80 ? "a non-ASCII byte" : "a control byte"
            return refuse("has \(what) at offset \(position): percent-encode it (RFC 3986); nothing was sent")
        }
        let scheme = url.prefix { $0 != ":" }
        guard scheme.count < url.count, url.dropFirst(scheme.count).hasPrefix("://") else {
            return refuse("must be an http:// URL: \(url)")
        }
        switch scheme.lowercased() {
        case "http": break
        case "https":
            return refuse(
                "is https://, but the sender speaks plain HTTP only: give the receiver's http:// URL (skan-mock's own receiver listens on --port)"
            )
        default: return refuse("must be an http:// URL (the only scheme the sender speaks): \(url)")
        }
        let rest = url.dropFirst(scheme.count + 3)
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        var tail = rest.dropFirst(authority.count)
        if let hash = tail.firstIndex(of: "#") { tail = tail[..<hash] }
        let path = tail.prefix { $0 != "?" }
        let query = tail.dropFirst(path.count)
        guard !authority.contains("@") else {
            return refuse("carries credentials (user@host), which the sender never sends: \(url)")
        }
        let host: String
        let port: Int
        switch hostAndPort(authority) {
        case .success(let parsed): (host, port) = parsed
        case .failure(let failure): return refuse("\(failure.reason): \(url)")
        }
        guard path.unicodeScalars.allSatisfy({ URICharacters.isPathCharacter($0) || $0 == "%" }),
            URICharacters.badEscape(path) == nil
        else {
            return refuse("has a path with characters RFC 3986 does not allow there; percent-encode them: \(url)")
        }
        guard query.unicodeScalars.allSatisfy({ URICharacters.isPathCharacter($0) || $0 == "%" || $0 == "?" }),
            URICharacters.badEscape(query) == nil
        else {
            return refuse("has a query with characters RFC 3986 does not allow there; percent-encode them: \(url)")
        }
        var target = String(path)
        if target.isEmpty {
            target =
                framework == .skan
                ? "/.well-known/skadnetwork/report-attribution/" : "/.well-known/appattribution/report-attribution/"
        }
        return .success(PostbackTarget(host: host, port: port, path: target + query))
    }

    /// The authority's host and port (80 when none is given).
    private static func hostAndPort(_ authority: Substring) -> Result<(String, Int), AdminQueryError> {
        var host = authority
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else {
                return .failure(AdminQueryError(reason: "has an unclosed [ in its host"))
            }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return .failure(AdminQueryError(reason: "has text after ]")) }
                portText = after.dropFirst()
            }
            guard host.contains(":"), System.numericAddress(String(host)) != nil else {
                return .failure(AdminQueryError(reason: "has [\(host)], which is not an IPv6 address"))
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
            guard !host.isEmpty, host.utf8.allSatisfy(isNameByte) else {
                return .failure(
                    AdminQueryError(
                        reason: "has a host that is neither a name nor an address (an IPv6 address goes in [ ])"))
            }
        } else {
            guard authority.utf8.allSatisfy(isNameByte) else {
                return .failure(AdminQueryError(reason: "has a host with characters a host name cannot have"))
            }
        }
        guard !host.isEmpty, host.utf8.count <= 253 else {
            return .failure(AdminQueryError(reason: "needs a host (at most 253 bytes)"))
        }
        var port = 80
        if let portText {
            guard (1...5).contains(portText.count), portText.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
                let number = Int(portText), (1...65_535).contains(number)
            else { return .failure(AdminQueryError(reason: "has a bad port (1 to 65535)")) }
            port = number
        }
        return .success((String(host), port))
    }

    /// A host name's bytes: letters, digits, `-`, `.`, `_` (no percent-encoded names).
    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"):
            true
        default: false
        }
    }

    /// The request path (the query left out) is one of Apple's receiver paths, at the root or
    /// under one tenant: the only paths the sender may reach on this server itself.
    var isReceiverPath: Bool {
        var path = Substring(path.prefix { $0 != "?" })
        if path.hasPrefix("/t/") {
            let name = path.dropFirst(3).prefix { $0 != "/" }
            guard !name.isEmpty else { return false }
            path = path.dropFirst(3 + name.count)
        }
        return ReceivedPostback.paths[String(path)] != nil
    }
}
