import SKANDomain
import SKANFiles
import SystemPOSIX

extension SKANMockServer {
    /// How often a long `--resume` says how far it got, in bytes of the file.
    static let resumeProgressBytes: Int64 = 64 << 20

    /// `--resume`'s stage: nothing to do without it (the configuration stage made sure that it has
    /// a `--log` file).
    static func resume(
        _ options: CheckedOptions, into service: ConversionService, tenants: TenantRegistry, journal: Journal,
        clock: OffsetClock
    ) throws(StartupError) -> [String] {
        guard options.resume, let path = options.logPath, path != "-" else { return [] }
        return try resume(from: path, into: service, tenants: tenants, journal: journal, clock: clock)
    }

    /// `--resume`: reads the `--log` file back as a stream (`JournalRestorer`), into the devices'
    /// state and the journal, and leaves the file ready for new lines: a whole last entry without
    /// its newline gets one, a line cut short by a kill is cut off. Returns the lines for standard
    /// error. Progress goes to standard error every `resumeProgressBytes` of a long file.
    /// Each named tenant's lines go to that tenant, made as a request to it would make it; of a
    /// file that names more tenants than `--max-tenants`, the ones that wrote last
    /// (`JournalTenantCensus`, a first read of the file), so that no tenant is made and dropped
    /// again while the file is read: nothing is written to it until the server serves (G9).
    static func resume(
        from path: String, into service: ConversionService, tenants: TenantRegistry, journal: Journal,
        clock: OffsetClock
    ) throws(StartupError) -> [String] {
        guard System.fileExists(path) else { return [] }
        let census = try tenantCensus(path, limit: tenants.capacity)
        let restored = census.restored
        let opened = try openJournal(path)
        var reader = opened.lines
        var restorer = JournalRestorer(
            into: service,
            tenants: { restored.contains($0) ? tenants.site($0, request: false)?.tenant.service : nil },
            journalCapacity: journal.capacity, journalBytes: journal.capacityBytes, source: path)
        var nextProgress = resumeProgressBytes
        var lastLine: JournalLine?
        do {
            while let line = try reader.next() {
                restorer.add(line)
                lastLine = line
                if reader.offset >= nextProgress {
                    nextProgress += resumeProgressBytes
                    StandardStreams.error(
                        "skan-mock: --resume: \(FileBytes.byteText(Int(reader.offset))) of \(FileBytes.byteText(Int(opened.size))) of \(path) read, \(Counted.text(restorer.entriesRead, "entry", plural: "entries")) so far"
                    )
                }
            }
        } catch {
            throw StartupError(.journal, "--resume: \(error.description)")
        }
        try endCleanly(path, reader: reader, lastLine: lastLine)
        let entries = restorer.finish()
        journal.restore(entries)
        if let offset = restorer.clockOffsetSeconds { clock.setOffset(seconds: offset) }
        for (name, offset) in restorer.tenantClockOffsets {
            tenants.existing(name)?.tenant.clock.setOffset(seconds: offset)
        }
        let named = tenants.slots.map { $0.slot.site.tenant.service.deviceCount }
        return restorer.notes + (census.leftOutNote(source: path).map { [$0] } ?? []) + [
            "skan-mock: resumed \(Counted.text(entries.count, "journal entry", plural: "journal entries")) from \(path) (\(Counted.text(restorer.answered, "request")) answered again for the devices' state, \(devicesText(service.deviceCount, tenants: named)))"
        ]
    }

    /// The first read of the file: which tenants wrote last, to restore within `--max-tenants`.
    private static func tenantCensus(_ path: String, limit: Int) throws(StartupError) -> JournalTenantCensus {
        var census = JournalTenantCensus(limit: limit)
        var first = try openJournal(path).lines
        do {
            while let line = try first.next() { census.add(line) }
        } catch {
            throw StartupError(.journal, "--resume: \(error.description)")
        }
        return census
    }

    /// The `--log` file opened for reading, with its size for the progress lines.
    private static func openJournal(_ path: String) throws(StartupError) -> (
        lines: JournalFileReader<JournalFile>, size: Int64
    ) {
        do {
            let file = try JournalFile(path: path)
            return (JournalFileReader(file), file.size)
        } catch {
            throw StartupError(.journal, "--resume: cannot read \(error.description)")
        }
    }

    /// The next line must start clean: a torn last line is cut off, a whole one without its
    /// newline gets one.
    private static func endCleanly(
        _ path: String, reader: JournalFileReader<JournalFile>, lastLine: JournalLine?
    ) throws(StartupError) {
        guard reader.lastLineUnterminated else { return }
        if case .skipped = lastLine {
            if let error = System.truncate(path: path, to: reader.lastLineStart) {
                throw StartupError(.journal, "--resume: cannot cut the torn last line off \(path): \(error.reason)")
            }
        } else if let error = appendNewline(to: path) {
            throw StartupError(.journal, "--resume: cannot end the last line of \(path): \(error.reason)")
        }
    }

    /// The devices `--resume` gave back: the default tenant's alone, or with each named tenant's
    /// counted in (a journal of tenants restores most of its devices there).
    static func devicesText(_ defaultDevices: Int, tenants: [Int]) -> String {
        guard !tenants.isEmpty else { return Counted.text(defaultDevices, "device") }
        let named = tenants.reduce(0, +)
        return
            "\(Counted.text(defaultDevices + named, "device")): \(defaultDevices) in the default tenant, \(named) in \(Counted.text(tenants.count, "named tenant"))"
    }
}
