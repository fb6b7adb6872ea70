import SKANDomain

extension JournalReport {
    /// A journal file summed up in one pass, as a stream (`skan-mock report`): each entry counted,
    /// and answered again at its own time into a service of its own, adopting the answer the
    /// journal says the client received, so the devices' postbacks are what the devices acted on
    /// whichever model is loaded now (`model`, when given, says what their values mean and which
    /// it never gives). Only a file that cannot be read is an error; a line that is not an entry
    /// is listed.
    public static func read<Source: JournalSource>(_ reader: inout JournalFileReader<Source>, model: ConversionModel?)
        throws(JournalReadError) -> JournalReport
    {
        var report = JournalReport()
        let service = ConversionService(
            model: model ?? .builtIn, clock: ManualClock(milliseconds: 0), deviceCapacity: 1_000_000)
        var now: Int64 = 0
        while let line = try reader.next() {
            report.add(line)
            guard case .entry(let record, _, _) = line else { continue }
            if let time = record.time { now = max(now, time) }
            service.answerAgain(record)
        }
        report.attachPostbacks(model: model, now: now) { service.device($0) }
        return report
    }
}
