/// One thing the server noticed about a request: which parameter, a stable code, and a message a
/// developer understands without reading the spec.
public struct ValidationFinding: Sendable, Equatable, CustomStringConvertible {
    public var param: String
    public var code: FindingCode
    public var message: String

    public init(param: String, code: FindingCode, message: String) {
        self.param = param
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue) (\(param)): \(message)" }

    /// `{"param":...,"code":...,"message":...}` as in the journal.
    public var json: JSONValue {
        .object([
            JSONMember("param", .string(param)), JSONMember("code", .string(code.rawValue)),
            JSONMember("message", .string(message))
        ])
    }

    func write(to writer: inout JSONWriter) {
        writer.raw("{\"param\":")
        writer.write(param)
        writer.raw(",\"code\":\"")
        writer.append(contentsOf: code.rawValue.utf8)
        writer.raw("\",\"message\":")
        writer.write(message)
        writer.raw("}")
    }
}
