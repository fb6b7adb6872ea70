import SKANDomain

extension JournalReport {
    /// A journal file summed up in one pass, as a stream (`skan-mock report`): each entry counted,
    /// and answered again at its own time into a service of its own, adopting the answer the
    /// journal says the client received, so the devices' postbacks are what the devices acted on
    /// whichever model is loaded now (`model`, when given, says what their values mean and which
    /// it never gives). Only a file that cannot be read is an error; a line that is not an entry
    /// is listed. The received postbacks are compared with the devices' predictions as of the
    /// journal's end (`postbackDevice` and `developerMode` as the received postbacks route takes them).
    public static func read<Source: JournalSource>(
        _ reader: inout JournalFileReader<Source>, model: ConversionModel?, postbackDevice: String? = nil,
        developerMode: Bool = false
    ) throws(JournalReadError) -> JournalReport {
        var rebuild = Rebuild(model: model)
        while let line = try reader.next() {
            rebuild.report.add(line)
            guard case .entry(let record, _, _) = line else { continue }
            rebuild.answerAgain(record)
        }
        return rebuild.finish(postbackDevice: postbackDevice, developerMode: developerMode)
    }

    /// Entries already in order (`skan-mock check`'s, judged from a capture) summed up as a journal
    /// file is, with the same postbacks.
    public static func read(records: some Sequence<JournalRecord>, model: ConversionModel?) -> JournalReport {
        var rebuild = Rebuild(model: model)
        for record in records {
            rebuild.report.add(record)
            rebuild.answerAgain(record)
        }
        return rebuild.finish(postbackDevice: nil, developerMode: false)
    }

    /// The devices answered again entry by entry into a service of the report's own.
    private struct Rebuild {
        let model: ConversionModel?
        let service: ConversionService
        var report = JournalReport()
        var now: Int64 = 0

        init(model: ConversionModel?) {
            self.model = model
            service = ConversionService(
                model: model ?? .builtIn, clock: ManualClock(milliseconds: 0), deviceCapacity: 1_000_000)
        }

        mutating func answerAgain(_ record: JournalRecord) {
            if let time = record.time { now = max(now, time) }
            service.answerAgain(record)
        }

        func finish(postbackDevice: String?, developerMode: Bool) -> JournalReport {
            var report = report
            let (service, model, now) = (service, model, now)
            report.attachPostbacks(model: model, now: now) { service.device($0) }
            // Read through a copy: `checkReceived` changes the report the closure would read.
            let windows = report
            report.checkReceived(model: model, device: postbackDevice, developerMode: developerMode) { id, options in
                service.device(id).map {
                    DevicePostbacks(
                        device: id, state: $0, model: model, now: now, tiers: options.tiers, options: options,
                        developerWindows: windows.developerModeWindows(id))
                }
            }
            return report
        }
    }
}
