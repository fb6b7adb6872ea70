import ArgumentParser
import SKANDomain
import SKANMock

/// `skan-mock report JOURNAL.jsonl`: the journal summed up per device for CI, optionally as JUnit
/// XML so SKAN mistakes show as failed tests.
struct Report: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Summarise a journal file (--log) per device; optionally write JUnit XML.",
        discussion: """
            Prints requests, windows reached, values answered and findings by code per device, and \
            the postbacks Apple would send for each device as of the journal's last request. \
            Exits 0, or 1 with --fail-on-findings when there is a finding or a line that is not JSON, \
            2 when the journal cannot be read or the JUnit file cannot be written.
            """
    )

    @Argument(help: ArgumentHelp("The journal, as written by --log (JSON Lines).", valueName: "journal"))
    var journal: String

    @Option(
        help: ArgumentHelp(
            "Also write JUnit XML here: a testcase per device, a failure per finding.", valueName: "file"))
    var junit: String?

    @Flag(help: "Print the summary as JSON (the shape of GET /__admin/report).")
    var json = false

    @Flag(help: "Exit 1 when there is any finding, postback value the model never gives, or unreadable line.")
    var failOnFindings = false

    @Option(
        help: ArgumentHelp(
            "The model the run used: says what each postback's value means, and flags values it never gives.",
            valueName: "file"))
    var model: String?

    func run() throws {
        do {
            let loaded: ConversionModel?
            do {
                loaded = try model.map { try SKANMockServer.loadModel($0) }
            } catch {
                StandardStreams.error("skan-mock report: \(error)")
                throw ExitCode(2)
            }
            let report = try JournalReport.read(path: journal, model: loaded)
            StandardStreams.output(json ? report.json.description : report.text)
            if let junit { try JournalReport.writeJUnit(report, to: junit) }
            if failOnFindings && report.hasProblems { throw ExitCode(1) }
        } catch let error as ReportFileError {
            StandardStreams.error("skan-mock report: \(error.description)")
            throw ExitCode(2)
        }
    }
}
