import SKANDomain

/// A path's `/t/NAME` read once, on its bytes in place (through the views' generic index walks, the
/// search and the check cost about 3,000 instructions a request): the name, and where the rest of
/// the target starts.
struct TenantPrefix {
    let name: String
    /// Where the path after `/t/NAME` starts in the target.
    let rest: String.Index
    /// Whether nothing follows the name in the path.
    let restIsEmpty: Bool

    /// Why a path under `/t/` names no tenant, as the refusal's opening words.
    enum Refusal: String, Error {
        case noName = "no tenant at"
        case badName = "bad tenant name in"
    }

    /// Reads a path that starts with `/t/`.
    static func read(_ path: Substring) -> Result<TenantPrefix, Refusal> {
        let skip = AppResponder.tenantPrefix.utf8.count
        let found: (name: String?, length: Int)? = path.utf8.withContiguousStorageIfAvailable { bytes in
            let after = bytes[skip...]
            let end = after.firstIndex(of: UInt8(ascii: "/")) ?? bytes.endIndex
            let name = UnsafeBufferPointer(rebasing: bytes[skip..<end])
            return (TenantName.isValid(name) ? String(decoding: name, as: UTF8.self) : nil, end - skip)
        }
        let (name, length) =
            found
            ?? {
                let name = Array(path.utf8.dropFirst(skip).prefix { $0 != UInt8(ascii: "/") })
                return (TenantName.isValid(name) ? String(decoding: name, as: UTF8.self) : nil, name.count)
            }()
        guard length > 0 else { return .failure(.noName) }
        guard let name else { return .failure(.badName) }
        let rest = path.utf8.index(path.startIndex, offsetBy: skip + length)
        return .success(TenantPrefix(name: name, rest: rest, restIsEmpty: rest == path.endIndex))
    }

    /// The target the tenant reads: the rest of the path (`/` when there is none) and the query,
    /// in one copy.
    func innerTarget(_ target: String) -> String {
        let after = target[rest...]
        return restIsEmpty ? "/" + after : String(after)
    }

    /// `target` (under `/t/`) without `/t/` and the name, whatever the name: the path the
    /// request meant (`/` when none) and its query, for journaling a request whose tenant is not
    /// there to take it.
    static func targetAfterName(_ target: String) -> String {
        let after = target.utf8.dropFirst(AppResponder.tenantPrefix.utf8.count)
        let end = after.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? after.endIndex
        let rest = target[end...]
        return rest.first == "/" ? String(rest) : "/" + rest
    }
}
