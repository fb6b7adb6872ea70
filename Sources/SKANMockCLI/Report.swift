import ArgumentParser
import SKANDomain
import SKANFiles
import SKANMock
import SKANReport

/// `skan-mock report JOURNAL.jsonl`: the journal summed up per device for CI, optionally as JUnit
/// XML so SKAN mistakes show as failed tests.
struct Report: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Summarise a journal file (--log) per device; optionally write JUnit XML.",
        discussion: """
            Prints requests, windows reached, values answered and findings by code per device, and \
            the postbacks Apple would send for each device as of the journal's last request, then \
            the postbacks the server received, each compared with that prediction. \
            Exits 0, or 1 with --fail-on-findings when there is a finding, a received postback that \
            differs from the prediction or whose signature does not verify, or a line that is not JSON, \
            2 when the journal cannot be read or the JUnit file cannot be written.
            """
    )

    @Argument(help: ArgumentHelp("The journal, as written by --log (JSON Lines).", valueName: "journal"))
    var journal: String

    @Option(
        help: ArgumentHelp(
            "Also write JUnit XML here: a testcase per device and per received postback, a failure per finding or difference.",
            valueName: "file"))
    var junit: String?

    @Option(
        help: ArgumentHelp(
            "Also write the tenant's requests as a HAR 1.2 file here (as GET /__admin/requests.har), findings in each entry's comment.",
            valueName: "file"))
    var har: String?

    @Flag(help: "Print the summary as JSON (the shape of GET /__admin/report).")
    var json = false

    @Option(
        help: ArgumentHelp("Read this tenant's lines (/t/NAME); without it, the default tenant's.", valueName: "name"))
    var tenant: String?

    @Flag(
        help:
            "Exit 1 when there is any finding, postback value the model never gives, received postback that fails, or unreadable line."
    )
    var failOnFindings = false

    @Option(
        help: ArgumentHelp(
            "The model the run used: says what each postback's value means, and flags values it never gives.",
            valueName: "file"))
    var model: String?

    @Option(
        help: ArgumentHelp(
            "The postbacks' format: skan (SKAdNetwork) or aak (AdAttributionKit).", valueName: "skan|aak"))
    var framework: String?

    @Option(
        help: ArgumentHelp("false: the postbacks a network whose ad did not win receives.", valueName: "true|false"))
    var didWin: String?

    @Option(
        help: ArgumentHelp(
            "true: iOS Developer Mode's windows (minutes) and delays, for the postbacks shown and those received compared.",
            valueName: "true|false"))
    var developerMode: String?

    @Option(help: ArgumentHelp("The first postback's source-identifier digits at tiers 2 and 3.", valueName: "2|3|4"))
    var digits: String?

    @Option(
        help: ArgumentHelp(
            "The country-code Apple adds to the winning tier-3 first postback (ISO 3166-1 alpha-2).",
            valueName: "CC"))
    var country: String?

    @Option(
        help: ArgumentHelp(
            "Compare the received postbacks that name no device (a phone's) with this device.", valueName: "id"))
    var postbackDevice: String?

    /// The postbacks route's parameters, checked by the route's own rules (issue 29).
    func postbackOptions() throws -> PostbackQuery {
        let given: [(String, String?)] = [
            ("framework", framework), ("did_win", didWin), ("developer_mode", developerMode), ("digits", digits),
            ("country", country)
        ]
        switch PostbackQuery.parse(given.compactMap { pair in pair.1.map { (name: pair.0, value: $0) } }) {
        case .success(let options): return options
        case .failure(let failure):
            throw ValidationError("--" + String(failure.message.map { $0 == "_" ? "-" : $0 }))
        }
    }

    func run() throws {
        let postbackOptions = try postbackOptions()
        if postbackDevice?.isEmpty == true { throw ValidationError("--postback-device must not be empty") }
        var loaded: ConversionModel?
        if let model {
            switch ModelFile.read(model) {
            case .success(let read): loaded = read
            case .failure(let failure):
                StandardStreams.error("skan-mock report: \(failure.summary)")
                throw ExitCode(2)
            }
        }
        var report = try JournalInput.read(journal, for: "report", tenant: tenant) {
            try JournalReport.read(
                &$0, model: loaded, postbackDevice: postbackDevice, developerMode: postbackOptions.developerMode)
        }
        if postbackOptions != PostbackQuery() {
            for i in report.devices.indices {
                report.devices[i].postbacks = report.devices[i].postbacks?.rendered(postbackOptions)
            }
        }
        StandardStreams.output(json ? report.json.description : report.text)
        if let junit {
            do {
                // A tenant's suite is named for it, so CI jobs' files merged side by side stay apart.
                let suite = tenant.map { "skan-mock.\($0)" } ?? "skan-mock"
                try FileBytes.write(Array(JUnitReport.xml(report, suiteName: suite).utf8), to: junit)
            } catch {
                StandardStreams.error("skan-mock report: cannot write JUnit report \(error.description)")
                throw ExitCode(2)
            }
        }
        if let har { try writeHAR(har) }
        if failOnFindings && report.hasProblems { throw ExitCode(1) }
    }

    /// The journal's entries as HAR, read again as a stream; URLs on skan-mock's default address,
    /// since the journal does not keep the host the app used.
    private func writeHAR(_ path: String) throws {
        if path == journal {
            StandardStreams.error("skan-mock report: --har \(path) is the journal itself; give another file")
            throw ExitCode(2)
        }
        let bytes = try JournalInput.read(journal, for: "report", tenant: tenant) { reader in
            var out = HARWriter.head(creatorVersion: SKANMockVersion.current)
            var first = true
            while let line = try reader.next() {
                guard case .entry(let record, _, _) = line, HARWriter.includes(record) else { continue }
                if !first { out += HARWriter.separator }
                first = false
                out += JSONWriter.serialize(HARWriter.entry(record, origin: "http://127.0.0.1:8080"))
            }
            return out + HARWriter.tail
        }
        do {
            try FileBytes.write(bytes, to: path)
        } catch {
            StandardStreams.error("skan-mock report: cannot write HAR file \(error.description)")
            throw ExitCode(2)
        }
    }
}
