import SKANDomain

/// The body of `POST /__admin/devices/{id}/postbacks/send`, `{"url", "tier"?, "framework"?}`, read
/// once and strictly (an unknown member is refused, not ignored), so the sender works on typed
/// values only. Pure: tested without a server.
struct PostbackSendRequest: Sendable, Equatable {
    /// The receiver's URL as given; `PostbackTarget` reads it.
    var url: String
    /// One tier (3 unless asked) and the framework.
    var options: PostbackQuery

    /// `body` read, or why not, in the words of the 400 answer.
    static func parse(_ body: [UInt8]) -> Result<PostbackSendRequest, AdminQueryError> {
        var options = PostbackQuery()
        options.tiers = [3]
        do {
            let json = try JSONParser.parse(body)
            let members = try CheckedJSON.members(json, "$", allowed: ["url", "tier", "framework"], required: ["url"])
            let url = try CheckedJSON.string(members["url"] ?? .null, "$.url")
            if let tier = members["tier"] { options.tiers = [Int(try CheckedJSON.integer(tier, "$.tier", 0...3))] }
            if let framework = members["framework"] {
                let name = try CheckedJSON.string(framework, "$.framework")
                guard let parsed = PostbackQuery.Framework(rawValue: name) else {
                    throw JSONProblem(path: "$.framework", reason: "expected skan or aak, found \(framework)")
                }
                options.framework = parsed
            }
            return .success(PostbackSendRequest(url: url, options: options))
        } catch let error as JSONParseError {
            return .failure(AdminQueryError(reason: "the body is not JSON: \(error)"))
        } catch let problem as JSONProblem {
            return .failure(AdminQueryError(reason: "\(problem.path): \(problem.reason)"))
        } catch {
            return .failure(AdminQueryError(reason: "\(error)"))
        }
    }
}
