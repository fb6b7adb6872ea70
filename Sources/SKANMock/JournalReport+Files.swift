import SKANDomain

extension JournalReport {
    /// Reads a journal file (`skan-mock report`); only an unreadable file is an error. The devices'
    /// postbacks come from their state rebuilt from the answers the journal holds, as of its last
    /// request; `model`, when given, says what their values mean (and which the model never gives).
    public static func read(path: String, model: ConversionModel? = nil) throws(ReportFileError) -> JournalReport {
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.read(path, limit: FileBytes.journalLimit)
        } catch {
            throw ReportFileError(description: "cannot read journal \(error.description)")
        }
        let (entries, unreadable) = JournalReport.entries(jsonLines: bytes)
        var report = JournalReport(entries: entries)
        report.unreadableLines = unreadable
        let (service, now) = JournalDeviceState.rebuild(entries, model: model ?? .builtIn)
        report.attachPostbacks(model: model, now: now) { service.device($0) }
        return report
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
