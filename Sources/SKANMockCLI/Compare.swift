import ArgumentParser
import SKANDomain
import SKANFiles
import SKANReport

/// `skan-mock compare JOURNAL.jsonl`: how the model's answers compared with the upstream's in a
/// journal written with `--upstream` and `--log`, for a person or for CI.
struct Compare: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Compare the model's answers with the upstream's in a journal written with --upstream and --log.",
        discussion: """
            Prints, per endpoint and window, how many answers matched the upstream's, how many \
            differed and how many got no upstream answer, then the first examples of each kind. \
            Exits 0, or 1 with --fail-on-differences when any answer differed or got no upstream \
            answer, or when nothing was compared (a journal of a run without --upstream, or an empty \
            one), 2 when the journal cannot be read.
            """
    )

    @Argument(help: ArgumentHelp("The journal, as written by --log (JSON Lines).", valueName: "journal"))
    var journal: String

    @Flag(help: "Print the comparison as JSON (the `upstream` of GET /__admin/report).")
    var json = false

    @Flag(help: "Exit 1 when any answer differed from the upstream's or got none, or when nothing was compared.")
    var failOnDifferences = false

    @Option(
        help: ArgumentHelp("Read this tenant's lines (/t/NAME); without it, the default tenant's.", valueName: "name"))
    var tenant: String?

    func run() throws {
        let report = try JournalInput.read(journal, for: "compare", tenant: tenant) { try UpstreamReport.read(&$0) }
        StandardStreams.output(json ? report.json.description : report.text)
        guard failOnDifferences else { return }
        // A check that compared nothing proved nothing: CI that runs it against the wrong journal
        // (one written without --upstream, or an empty one) must not pass.
        if report.compared == 0 {
            StandardStreams.error(
                "skan-mock compare: nothing was compared: no entry of \(journal) has an upstream answer (write it with --upstream and --log)"
            )
            throw ExitCode(1)
        }
        if report.hasDifferences { throw ExitCode(1) }
    }
}
