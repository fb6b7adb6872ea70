import ArgumentParser
import SKANDomain
import SKANFiles
import SKANMock

/// `skan-mock record JOURNAL.jsonl --out replay.json`: production's answers in a journal of an
/// `--upstream` run, frozen into a replay file that `--replay` serves, so a regression suite can
/// run against production's behaviour without production.
struct Record: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Turn the journal of an --upstream run into a replay file for --replay.",
        discussion: """
            Keeps every entry with an upstream answer (proxy or shadow mode), per device and in \
            order, keyed by endpoint and the request's SKAN state (event, window, values, coarse \
            values, locks, revenue; not timestamps). Prints one line saying what was recorded. \
            Exits 0, or 2 when the journal cannot be read, has a line that is not JSON, has no \
            upstream answer, or the replay file cannot be written. Never writes over the journal, \
            nor over an existing file that is not a replay file unless --force is given; the file \
            is written whole to a temporary file and renamed into place.
            """
    )

    @Argument(
        help: ArgumentHelp(
            "The journal, as written by --log during a run with --upstream (JSON Lines).", valueName: "journal"))
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

    func run() throws {
        if let refusal = ReplayDestination.refusal(out: out, journal: journal, force: force) {
            StandardStreams.error("skan-mock record: \(refusal)")
            throw ExitCode(2)
        }
        let recording = try JournalInput.read(journal, for: "record", tenant: tenant) {
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
}
