/// Where a document a person wrote (a model, a replay file, a scenario) is wrong: the JSON path
/// of the value (`$.skan4.p0.entries[2].fine`) and why.
public struct JSONProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(path): \(reason)" }
}

/// The one reader of checked JSON: every read names the JSON path of what it reads, and an
/// object's members are checked against the names allowed there, so a typo ("min_cout") is an
/// error, with the name it was probably meant to be, instead of a silent default. A model file
/// collects every problem (`checkMembers`); replay and scenario files stop at the first (the
/// throwing reads).
public enum CheckedJSON {
    /// `path.key`, or `path["key"]` for a key that is not a plain name.
    public static func child(_ path: String, _ key: String) -> String {
        let plain =
            !key.isEmpty
            && key.utf8.allSatisfy { b in
                (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
                    || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "_")
            }
        return plain ? "\(path).\(key)" : "\(path)[\(JSONValue.string(key))]"
    }

    /// The object's members by name, and every problem: not an object, a name given twice or not
    /// in `allowed`, a `required` one missing. Members with a problem are left out.
    public static func checkMembers(_ value: JSONValue, _ path: String, allowed: [String], required: [String] = [])
        -> (members: [String: JSONValue], problems: [JSONProblem])
    {
        guard case .object(let list) = value else {
            return ([:], [JSONProblem(path: path, reason: "expected an object, found \(value.typeName)")])
        }
        var members: [String: JSONValue] = [:]
        var problems: [JSONProblem] = []
        for member in list {
            let at = child(path, member.key)
            if members[member.key] != nil {
                problems.append(JSONProblem(path: at, reason: "duplicate key \"\(member.key)\""))
            } else if !allowed.contains(member.key) {
                problems.append(JSONProblem(path: at, reason: unknownKey(member.key, allowed: allowed)))
            } else {
                members[member.key] = member.value
            }
        }
        for name in required where members[name] == nil && !list.contains(where: { $0.key == name }) {
            problems.append(JSONProblem(path: path, reason: "\"\(name)\" is missing"))
        }
        return (members, problems)
    }

    /// `checkMembers`, stopping at the first problem.
    public static func members(_ value: JSONValue, _ path: String, allowed: [String], required: [String] = [])
        throws(JSONProblem) -> [String: JSONValue]
    {
        let checked = checkMembers(value, path, allowed: allowed, required: required)
        if let first = checked.problems.first { throw first }
        return checked.members
    }

    static func unknownKey(_ key: String, allowed: [String]) -> String {
        var reason = "unknown key \"\(key)\""
        if let guess = closest(key, in: allowed) { reason += " (did you mean \"\(guess)\"?)" }
        let listed = allowed.filter { $0 != "$schema" }
        return reason
            + (listed.isEmpty ? "; it takes no keys ({})" : "; allowed here: \(listed.joined(separator: ", "))")
    }

    public static func integer(
        _ value: JSONValue, _ path: String, _ range: ClosedRange<Int64>, what: String = "an integer"
    ) throws(JSONProblem) -> Int64 {
        guard let i = value.intValue else {
            let bounds = range == Int64.min...Int64.max ? "" : " in \(range.lowerBound)...\(range.upperBound)"
            throw JSONProblem(path: path, reason: "expected \(what)\(bounds), found \(value.typeName) \(value)")
        }
        guard range.contains(i) else {
            throw JSONProblem(path: path, reason: "\(i) is outside \(range.lowerBound)...\(range.upperBound)")
        }
        return i
    }

    public static func string(_ value: JSONValue, _ path: String) throws(JSONProblem) -> String {
        guard case .string(let s) = value else {
            throw JSONProblem(path: path, reason: "expected a string, found \(value.typeName) \(value)")
        }
        return s
    }

    public static func bool(_ value: JSONValue, _ path: String) throws(JSONProblem) -> Bool {
        guard case .bool(let b) = value else {
            throw JSONProblem(path: path, reason: "expected true or false, found \(value.typeName) \(value)")
        }
        return b
    }

    /// The allowed name `key` was probably meant to be: a few edits away.
    static func closest(_ key: String, in allowed: [String]) -> String? {
        var best: (String, Int)?
        for candidate in allowed {
            let d = editDistance(Array(key.utf8), Array(candidate.utf8))
            if d <= max(1, candidate.utf8.count / 3), best == nil || d < best!.1 { best = (candidate, d) }
        }
        return best?.0
    }

    static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = Array(repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
