import SystemPOSIX

/// The descriptors a server needs: one per connection on each port, plus its own (the listeners,
/// a poller per event loop, the journal file, the model watcher, files an admin call reads, the
/// standard streams). A Mac's shell starts every process with a soft limit of 256, below the 1,024
/// connections served by default, and a server that runs out stops accepting instead of answering
/// `503`: so the soft limit is raised at start, and when the hard limit forbids it, the connection
/// limit comes down to what fits, said in one line.
struct DescriptorBudget: Sendable, Equatable {
    /// Connections served on each port.
    let maxConnections: Int
    /// Why fewer connections are served than asked for, for standard error; nil when all fit.
    let notice: String?

    /// Descriptors kept for the server's own use beside its connections.
    static func reserve(listeners: Int, processors: Int) -> Int {
        64 + 2 * listeners * max(1, processors)
    }

    /// The fewest connections per port a server is started with, whatever the limit says: below
    /// it the start would fail anyway (on `accept`), with the reason printed.
    static let minimumConnections = 16

    /// Raises the open-file limit through `raise` for `maxConnections` on each of `listeners` ports
    /// and says how many fit.
    static func fit(
        maxConnections: Int, listeners: Int, processors: Int,
        raise: (Int) -> OpenFileLimit = System.raiseOpenFileLimit(to:)
    ) -> DescriptorBudget {
        let reserve = reserve(listeners: listeners, processors: processors)
        let wanted = maxConnections * listeners + reserve
        let limit = raise(wanted)
        if limit.suffices { return DescriptorBudget(maxConnections: maxConnections, notice: nil) }
        let fitting = max(minimumConnections, (limit.soft - reserve) / max(1, listeners))
        let hard = limit.hard == Int.max ? "unlimited" : String(limit.hard)
        let notice =
            "skan-mock: the open-file limit is \(limit.soft) (hard limit \(hard)) and \(wanted) are needed: "
            + "serving at most \(fitting) connections per port instead of \(maxConnections); "
            + "raise it with `ulimit -n \(wanted)` or lower --max-connections"
        return DescriptorBudget(maxConnections: min(maxConnections, fitting), notice: notice)
    }
}
