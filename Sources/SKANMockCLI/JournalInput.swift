import ArgumentParser
import SKANDomain
import SKANFiles

/// The journal file `report`, `compare` and `record` read, through one reader: a file that cannot
/// be read, or a line that cannot be used, ends the command with its reason on standard error and
/// exit status 2, worded alike in all three.
enum JournalInput {
    static func read<Result>(
        _ path: String, for command: String,
        _ body: (inout JournalFileReader<JournalFile>) throws -> Result
    ) throws -> Result {
        do {
            var reader = try JournalFile.reader(path)
            return try body(&reader)
        } catch let error as FileBytes.Failure {
            StandardStreams.error("skan-mock \(command): cannot read journal \(error.description)")
            throw ExitCode(2)
        } catch let error as JournalReadError {
            StandardStreams.error("skan-mock \(command): \(error.description)")
            throw ExitCode(2)
        } catch let error as ReplayFileError {
            StandardStreams.error("skan-mock \(command): \(error.description)")
            throw ExitCode(2)
        }
    }
}
