import ArgumentParser
import SKANMock

/// The journal: its file, how much it keeps in memory, and `--resume`.
struct ServeJournal: ServeOptionGroup {
    @Option(
        help: ArgumentHelp(
            "Write the journal as JSON Lines to this file, or - for standard output. [env: SKAN_MOCK_LOG]",
            valueName: "file"))
    var log: String?

    @Flag(
        help:
            "Read the --log file back at start: the journal and every device's state, so a restart loses nothing answered. [env: SKAN_MOCK_RESUME=1]"
    )
    var resume = false

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Journal entries kept in memory; the oldest are dropped first. [env: SKAN_MOCK_JOURNAL_SIZE, default: 10000]",
            valueName: "n"))
    var journalSize: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Bytes of journal lines kept in memory (K, M, G suffixes); the oldest entries are dropped first. [env: SKAN_MOCK_JOURNAL_BYTES, default: 64M]",
            valueName: "bytes"))
    var journalBytes: String?

    func apply(to options: inout ServerOptions, _ environment: Environment) throws(SKANMockServer.StartupError) {
        options.logPath = log ?? environment["SKAN_MOCK_LOG"]
        options.resume = resume || environment.flag("SKAN_MOCK_RESUME")
        options.journalSize =
            try environment.integer(
                journalSize, "--journal-size", "SKAN_MOCK_JOURNAL_SIZE", in: 1...Int.max, "must be at least 1")
            ?? options.journalSize
        if let (text, source) = environment.text(journalBytes, "--journal-bytes", "SKAN_MOCK_JOURNAL_BYTES") {
            guard let bytes = Self.byteCount(text), bytes >= 64 << 10 else {
                throw SKANMockServer.StartupError(
                    .configuration, "\(source) \(text): give a size of at least 64K, e.g. 64M or 1G")
            }
            options.journalBytes = bytes
        }
    }

    mutating func validate() throws { try check() }

    /// `65536`, `64K`, `64M`, `1G` (powers of 1024), or nil.
    static func byteCount(_ text: String) -> Int? {
        let units: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
        guard let last = text.uppercased().last else { return nil }
        if let unit = units[last] {
            guard let value = Int(text.dropLast()), value >= 0, value <= Int.max / unit else { return nil }
            return value * unit
        }
        return Int(text).flatMap { $0 >= 0 ? $0 : nil }
    }
}
