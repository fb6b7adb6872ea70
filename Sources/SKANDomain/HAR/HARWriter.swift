/// The journal as a HAR 1.2 file (`GET /__admin/requests.har`, `skan-mock report --har`): a file
/// Proxyman, Charles, a browser's network panel and `skan-mock check` all open, so a bug ticket
/// carries the requests with their answers and skan-mock's findings (in each entry's `comment`,
/// which those tools show, and `_skan_mock`, a custom field as HAR allows, for scripts).
/// Written piece by piece (`head`, one `entry` per record with commas between, `tail`), so a
/// journal file becomes a HAR file without being held whole.
///
/// The journal keeps a request's parameters, not its bytes: the URL's query (or a POST's form
/// body) is written from the parameters as sent, in order, percent-encoded, without those a route
/// alias added; headers are not journaled and are written as none.
public enum HARWriter {
    /// `{"log":{"version":"1.2","creator":{...},"entries":[`
    public static func head(creatorVersion: String) -> [UInt8] {
        Array(#"{"log":{"version":"1.2","creator":{"name":"skan-mock","version":"#.utf8)
            + JSONWriter.serialize(.string(creatorVersion)) + Array(#"},"entries":["#.utf8)
    }

    public static let separator: [UInt8] = Array(",\n".utf8)
    public static let tail: [UInt8] = Array("]}}\n".utf8)

    /// Whether a journal entry is written: the app's requests are; a postback Apple sent to the
    /// receiver is journaled without its request's bytes as sent, so it is left out.
    public static func includes(_ record: JournalRecord) -> Bool { record.endpoint != .postback }

    /// A whole HAR file of `records` (those it `includes`), in their order.
    public static func document(_ records: [JournalRecord], origin: String, creatorVersion: String) -> [UInt8] {
        var out = head(creatorVersion: creatorVersion)
        for (n, record) in records.filter(includes).enumerated() {
            if n > 0 { out += separator }
            out += JSONWriter.serialize(entry(record, origin: origin))
        }
        return out + tail
    }

    /// One entry: `origin` (`http://127.0.0.1:8080`) with the tenant's `/t/NAME`, the path and
    /// the query as the client sent them; the answer as sent, and its time.
    public static func entry(_ record: JournalRecord, origin: String) -> JSONValue {
        let sent = record.parameters.sentFields.map {
            (
                String(decoding: record.parameters.bytes[$0.name], as: UTF8.self),
                String(decoding: record.parameters.bytes[$0.value], as: UTF8.self)
            )
        }
        let form = sent.map { percentEncoded($0.0) + "=" + percentEncoded($0.1) }.joined(separator: "&")
        let isPost = record.method == "POST"
        let base = origin + (record.tenant.map { "/t/" + $0 } ?? "") + record.path
        let url = isPost || form.isEmpty ? base : base + "?" + form
        let millis = Double(record.durationMicros ?? 0) / 1000
        var request: [JSONMember] = [
            JSONMember("method", .string(record.method)), JSONMember("url", .string(url)),
            JSONMember("httpVersion", "HTTP/1.1"), JSONMember("cookies", []), JSONMember("headers", []),
            JSONMember(
                "queryString",
                .array(isPost ? [] : sent.map { ["name": .string($0.0), "value": .string($0.1)] })),
            JSONMember("headersSize", -1), JSONMember("bodySize", .int(isPost ? Int64(form.utf8.count) : 0))
        ]
        if isPost {
            request.append(
                JSONMember(
                    "postData",
                    [
                        "mimeType": "application/x-www-form-urlencoded", "text": .string(form),
                        "params": .array(sent.map { ["name": .string($0.0), "value": .string($0.1)] })
                    ]))
        }
        let body = record.response.body
        var content: [JSONMember] = [
            JSONMember("size", .int(Int64(body.count))),
            JSONMember("mimeType", body.first == UInt8(ascii: "{") ? "application/json" : "text/plain")
        ]
        if Base64.isUTF8(body) {
            content.append(JSONMember("text", .string(String(decoding: body, as: UTF8.self))))
        } else {
            content.append(JSONMember("text", .string(Base64.encode(body))))
            content.append(JSONMember("encoding", "base64"))
        }
        let response: [JSONMember] = [
            JSONMember("status", .int(Int64(record.response.status))), JSONMember("statusText", ""),
            JSONMember("httpVersion", "HTTP/1.1"), JSONMember("cookies", []),
            JSONMember("headers", body.isEmpty ? [] : [["name": "Content-Type", "value": "application/json"]]),
            JSONMember("content", .object(content)), JSONMember("redirectURL", ""), JSONMember("headersSize", -1),
            JSONMember("bodySize", .int(Int64(body.count)))
        ]
        var members: [JSONMember] = [
            JSONMember("startedDateTime", .string(RFC3339.format(milliseconds: record.time ?? 0))),
            JSONMember("time", .double(millis)),
            JSONMember("request", .object(request)), JSONMember("response", .object(response)),
            JSONMember("cache", [:]),
            JSONMember(
                "timings",
                ["blocked": -1, "dns": -1, "connect": -1, "ssl": -1, "send": 0, "wait": .double(millis), "receive": 0])
        ]
        if !record.issues.isEmpty { members.append(JSONMember("comment", .string(comment(record.issues)))) }
        members.append(
            JSONMember(
                "_skan_mock",
                [
                    "id": .int(record.id), "endpoint": record.endpoint.map { .string($0.rawValue) } ?? .null,
                    "device": record.device.map { .string($0) } ?? .null,
                    "window": record.window.map { .string($0.rawValue) } ?? .null,
                    "issues": .array(
                        record.issues.map {
                            [
                                "param": $0.param.map { .string($0) } ?? .null, "code": .string($0.code.rawValue),
                                "message": .string($0.message)
                            ]
                        })
                ]))
        return .object(members)
    }

    /// `skan-mock: p0_coarse: coarse_value_out_of_range: p0_coarse 7 is outside 0...2 ...`, a line per finding.
    static func comment(_ issues: [JournalRecord.Issue]) -> String {
        issues.map { "skan-mock: " + ($0.param.map { "\($0): " } ?? "") + "\($0.code.rawValue): \($0.message)" }
            .joined(separator: "\n")
    }

    /// A query component as a URL carries it: unreserved bytes as they are, the rest `%XX`.
    static func percentEncoded(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.append(byte)
            default:
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
