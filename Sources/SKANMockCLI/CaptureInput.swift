import ArgumentParser
import SKANDomain
import SKANFiles
import SKANMock
import SKANReport

/// The HAR capture `check` and `record` read, through one reader: the file as a stream, the `--route`
/// aliases read as `serve` reads them, each entry that cannot be read one line on standard error
/// (`skan-mock check: capture.har: entry 7 (URL): reason`) while the rest is read, and a file that is
/// no capture at all (unreadable, not JSON, no `log.entries`) exit status 2.
enum CaptureInput {
    /// Whether `path` names a HAR file (`record` takes a journal otherwise).
    static func isHAR(_ path: String) -> Bool { path.lowercased().hasSuffix(".har") }

    static func aliases(_ routes: [String]) throws -> [RouteAlias] {
        let aliases: [RouteAlias]
        do {
            aliases = try routes.map { route throws(RouteAlias.ParseError) in try RouteAlias(parsing: route) }
        } catch {
            throw ValidationError(error.description)
        }
        if let conflict = RouteAlias.conflict(in: aliases) { throw ValidationError(conflict) }
        return aliases
    }

    static func read<Result>(
        _ path: String, for command: String,
        _ body: (inout HARStreamReader<JournalFile>) throws(JournalReadError) -> (CaptureReport, Result)
    ) throws -> (CaptureReport, Result) {
        let result: (CaptureReport, Result)
        do {
            var reader = HARStreamReader(try JournalFile(path: path))
            result = try body(&reader)
        } catch let error as FileBytes.Failure {
            StandardStreams.error("skan-mock \(command): cannot read capture \(error.description)")
            throw ExitCode(2)
        } catch let error as JournalReadError {
            StandardStreams.error("skan-mock \(command): \(path): \(error.description)")
            throw ExitCode(2)
        }
        // Each unreadable entry is one line, where a CI log shows it first.
        for problem in result.0.problems { StandardStreams.error("skan-mock \(command): \(path): \(problem.line)") }
        if result.0.entries == 0, let problem = result.0.problems.first, problem.entry == nil {
            // Nothing was read at all: not a capture (not JSON, empty, no log.entries).
            throw ExitCode(2)
        }
        return result
    }
}
