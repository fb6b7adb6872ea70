import ArgumentParser
import SKANDomain
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
            upstream answer, or the replay file cannot be written.
            """
    )

    @Argument(
        help: ArgumentHelp(
            "The journal, as written by --log during a run with --upstream (JSON Lines).", valueName: "journal"))
    var journal: String

    @Option(help: ArgumentHelp("The replay file to write (replaced if it exists).", valueName: "file"))
    var out: String

    func run() throws {
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.read(journal, limit: FileBytes.journalLimit)
        } catch {
            StandardStreams.error("skan-mock record: cannot read journal \(error.description)")
            throw ExitCode(2)
        }
        let recording: ReplayRecording
        do {
            recording = try ReplayRecording(jsonLines: bytes, source: journal)
        } catch {
            StandardStreams.error("skan-mock record: \(error.description)")
            throw ExitCode(2)
        }
        do {
            try FileBytes.write(recording.file.text, to: out)
        } catch {
            StandardStreams.error("skan-mock record: cannot write \(error.description)")
            throw ExitCode(2)
        }
        StandardStreams.output("\(recording.summary), written to \(out)")
    }
}
