import SKANDomain
import SKANReport
import Testing

@testable import SKANMock

/// `skan-mock check` without files or sockets: HAR text in memory, judged by `CaptureJudge` and
/// summed up by `CaptureReport`. Each finding is the one a live request gets, in the capture's
/// time order; other entries are counted; aliases, tenants' paths and the model's comparison.
@Suite struct CaptureCheckTests {
    static let first: Int64 = 1_795_000_000
    static let startMs = first * 1000

    /// One HAR entry: `GET url` at `first + seconds`, answered `status` with `body`.
    static func entry(
        _ url: String, at seconds: Int64, status: Int = 200, body: String? = #"{"status":"ok"}"#,
        method: String = "GET", post: String? = nil, duration: String = "3"
    ) -> String {
        let time = RFC3339.format(milliseconds: startMs + seconds * 1000)
        let content = body.map { #"{"mimeType":"application/json","text":\#(JSONValue.string($0).description)}"# }
        let postData =
            post.map { #","postData":{"mimeType":"application/x-www-form-urlencoded","text":"\#($0)"}"# } ?? ""
        return
            #"{"startedDateTime":"\#(time)","time":\#(duration),"request":{"method":"\#(method)","url":"\#(url)","headers":[]\#(postData)},"response":{"status":\#(status),"content":\#(content ?? "{}")}}"#
    }

    static func har(_ entries: [String]) -> String {
        #"{"log":{"version":"1.2","creator":{"name":"test","version":"1"},"entries":["# + entries.joined(separator: ",")
            + "]}}"
    }

    static func skan4(_ device: String, _ extra: String = "", value: Int = 0) -> String {
        "https://sdk-api-v1.singular.net/api/v2/conversion_value?a=KEY&v=17.4&i=com.example.app&p=iOS&idfv=\(device)"
            + "&n=__SESSION__&skan_current_conversion_value=\(value)&skan_first_call_to_skadnetwork_timestamp=\(first)"
            + extra
    }

    static let answer1 =
        #"{"status":"ok","conversion_value":1,"skan_updated_coarse_value":0,"skan_updated_lock_window_value":false}"#

    func check(_ text: String, aliases: [RouteAlias] = [], model: ConversionModel? = nil) throws -> CaptureReport {
        let judge = CaptureJudge(aliases: aliases, model: model)
        var reader = HARStreamReader(InMemoryJournalSource(Array(text.utf8)))
        return try CaptureReport.read(
            &reader, model: model, compared: model != nil, isSingular: judge.isSingular, judge: judge.judge)
    }

    @Test func aWrongParameterIsFoundAndOthersAreLeftAlone() throws {
        let report = try check(
            Self.har([
                Self.entry("https://cdn.example.com/logo.png", at: 0, body: nil),
                Self.entry(Self.skan4("D1", "&p0_coarse=7"), at: 5, body: Self.answer1),
                Self.entry("https://api.example.com/login", at: 6)
            ]))
        #expect(report.entries == 3)
        #expect(report.singular == 1)
        #expect(report.others == 2)
        #expect(report.problems.isEmpty)
        let device = try #require(report.journal.devices.first)
        #expect(device.device == "D1")
        #expect(device.values == [1])
        #expect(device.windows == ["p0"])
        #expect(device.findings.map(\.code) == ["coarse_value_out_of_range"])
        // Named by its place in the capture, from 1.
        #expect(device.findings.first?.requestId == 2)
        #expect(device.postbacks != nil)
        #expect(report.hasProblems)
    }

    /// Entries listed out of order are judged in time order: the later value is the device's last.
    @Test func timeOrderNotFileOrder() throws {
        let two =
            #"{"status":"ok","conversion_value":2,"skan_updated_coarse_value":0,"skan_updated_lock_window_value":false}"#
        let report = try check(
            Self.har([
                Self.entry(Self.skan4("D2", value: 1), at: 20, body: two),
                Self.entry(Self.skan4("D2"), at: 10, body: Self.answer1)
            ]))
        #expect(report.journal.devices.first?.values == [1, 2])
        #expect(report.journal.findingCount == 0)
        #expect(report.journal.devices.first?.postbacks?.json.description.contains("\"fine\":2") == true)
    }

    @Test func aliasesTenantsAndUnreadableEntries() throws {
        let alias = try RouteAlias(parsing: "/v2/attribution/conversion-value=skan4?a=KEY")
        let report = try check(
            Self.har([
                Self.entry(
                    "https://backend.example.com/v2/attribution/conversion-value?v=17.4&i=com.example.app&p=iOS&idfv=D3&n=__SESSION__&skan_current_conversion_value=0&skan_first_call_to_skadnetwork_timestamp=\(Self.first)",
                    at: 1, body: Self.answer1),
                Self.entry(
                    "http://127.0.0.1:8080/t/qa-1/api/v1/conversion_value?a=K&i=x&p=iOS&idfv=D4&n=__SESSION__", at: 2),
                #"{"startedDateTime":"2026-11-28T13:00:00Z","request":{"method":"GET","url":"https://h/api/v1/evt"}}"#,
                "[1]"
            ]), aliases: [alias])
        #expect(report.singular == 2)
        #expect(report.journal.devices.map(\.device) == ["D3", "D4"])
        // The alias added `a`: no missing_parameter for it.
        #expect(report.journal.devices[0].findings.isEmpty)
        #expect(
            report.problems.map(\.line) == [
                "entry 3 (https://h/api/v1/evt): $.response: missing", "entry 4: $: expected an object, found array"
            ])
    }

    @Test func aRequestTheServerRefusesIsRefusedHereToo() throws {
        let report = try check(
            Self.har([
                Self.entry(Self.skan4("D5"), at: 1, method: "DELETE"),
                Self.entry("https://h/api/v1/launch", at: 2, method: "POST", post: "a=KEY&i=x&p=iOS&idfv=D5")
            ]))
        let codes = report.journal.devices.flatMap(\.findings).map(\.code)
        #expect(codes.first == "method_not_allowed")
    }

    /// A browser's failed request (status 0) and an absurd `time` are read, not fatal: the request is
    /// judged, nothing is adopted.
    @Test func noAnswerAndAnAbsurdTime() throws {
        let failed = Self.entry(Self.skan4("D7"), at: 1, status: 0, body: "", duration: "1e300")
        let report = try check(Self.har([failed]))
        #expect(report.singular == 1)
        #expect(report.problems.isEmpty)
        #expect(report.journal.devices.first?.values == [])
    }

    @Test func withAModelSingularsAnswersAreCompared() throws {
        let model = try ConversionModel.parse(
            text: #"{"name":"m","skan4":{"p0":{"entries":[{"fine":5,"coarse":"low"}]}}}"#, source: "m.json")
        let report = try check(Self.har([Self.entry(Self.skan4("D6"), at: 1, body: Self.answer1)]), model: model)
        let upstream = try #require(report.upstream)
        #expect(upstream.differed == 1)
        #expect(report.journal.devices.first?.findings.map(\.code) == ["differs_from_upstream"])
        #expect(report.text.contains("Singular's answers against the model"))
    }
}
