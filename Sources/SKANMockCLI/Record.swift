import ArgumentParser
import SKANDomain
import SKANFiles
import SKANMock
import SKANReport

/// `skan-mock record JOURNAL.jsonl --out replay.json`: production's answers in a journal of an
/// `--upstream` run, frozen into a replay file that `--replay` serves, so a regression suite can
/// run against production's behaviour without production. A HAR capture (`CAPTURE.har`) of an app
/// talking to Singular's production is recorded too: Singular's answers, as captured.
struct Record: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Turn the journal of an --upstream run, or a HAR capture, into a replay file for --replay.",
        discussion: """
            Keeps every entry with an upstream answer (proxy or shadow mode), per device and in \
            order, keyed by endpoint and the request's SKAN state (event, window, values, coarse \
            values, locks, revenue; not timestamps). Prints one line saying what was recorded. \
            Exits 0, or 2 when the journal cannot be read, has a line that is not JSON, has no \
            upstream answer, or the replay file cannot be written. Never writes over the journal, \
            nor over an existing file that is not a replay file unless --force is given; the file \
            is written whole to a temporary file and renamed into place. A file whose name ends in \
            .har is read as a HAR capture (as check reads it): Singular's answers are recorded in the \
            capture's time order; entries that cannot be read are named on standard error and left out.
            """
    )

    @Argument(
        help: ArgumentHelp(
            "The journal, as written by --log during a run with --upstream (JSON Lines), or a HAR capture (*.har).",
            valueName: "journal"))
    var journal: String

    @Option(
        help: ArgumentHelp(
            "The replay file to write (an existing replay file is replaced; any other file only with --force).",
            valueName: "file"))
    var out: String

    @Flag(help: "Replace --out even when it is not a replay file (never the journal itself).")
    var force = false

    @Option(
        help: ArgumentHelp("Read this tenant's lines (/t/NAME); without it, the default tenant's.", valueName: "name"))
    var tenant: String?

    @Option(
        name: .customLong("route"),
        help: ArgumentHelp(
            "With a HAR capture: one more path that is a Singular endpoint, as serve's --route.",
            valueName: "path=endpoint"))
    var routes: [String] = []

    func run() throws {
        let isHAR = CaptureInput.isHAR(journal)
        if !isHAR && !routes.isEmpty { throw ValidationError("--route is for a HAR capture (*.har), not a journal") }
        if isHAR && tenant != nil { throw ValidationError("--tenant is for a journal, not a HAR capture") }
        if let refusal = ReplayDestination.refusal(out: out, journal: journal, force: force) {
            StandardStreams.error("skan-mock record: \(refusal)")
            throw ExitCode(2)
        }
        let recording =
            isHAR
            ? try recordCapture()
            : try JournalInput.read(journal, for: "record", tenant: tenant) {
                try ReplayRecording(reading: &$0, source: journal)
            }
        do {
            try ReplayDestination.write(recording.file.text, to: out)
        } catch {
            StandardStreams.error("skan-mock record: cannot write \(out): \(error.reason)")
            throw ExitCode(2)
        }
        StandardStreams.output("\(recording.summary), written to \(out)")
    }

    /// Singular's answers in a HAR capture, judged as `check` judges them.
    private func recordCapture() throws -> ReplayRecording {
        let judge = CaptureJudge(aliases: try CaptureInput.aliases(routes), model: nil)
        let (_, records) = try CaptureInput.read(journal, for: "record") { reader throws(JournalReadError) in
            try CaptureReport.judged(&reader, isSingular: judge.isSingular, judge: judge.judge)
        }
        guard records.contains(where: { $0.upstream?.answer != nil }) else {
            StandardStreams.error(
                "skan-mock record: \(journal): no request to Singular's endpoints with an answer, so nothing to record")
            throw ExitCode(2)
        }
        do {
            return try ReplayRecording(records: records, source: journal) { "entry \($0.id)" }
        } catch {
            StandardStreams.error("skan-mock record: \(error.description)")
            throw ExitCode(2)
        }
    }
}
