extension JournalReport {
    /// Reads a journal file (`skan-mock report`); only an unreadable file is an error.
    public static func read(path: String) throws(ReportFileError) -> JournalReport {
        do {
            return JournalReport(jsonLines: try FileBytes.read(path))
        } catch {
            throw ReportFileError(description: "cannot read journal \(error.description)")
        }
    }

    /// Writes the JUnit XML form of `report` to `path`.
    public static func writeJUnit(_ report: JournalReport, to path: String) throws(ReportFileError) {
        do {
            try FileBytes.write(Array(JUnitReport.xml(report).utf8), to: path)
        } catch {
            throw ReportFileError(description: "cannot write JUnit report \(error.description)")
        }
    }
}

/// A journal or report file that could not be read or written; the CLI prints it (exit status 2).
public struct ReportFileError: Error, Sendable, CustomStringConvertible {
    public let description: String
}
