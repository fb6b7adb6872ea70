/// Where the values that start-up checks across options came from: a command-line option
/// (`--route`) or an environment variable (`SKAN_MOCK_ROUTES`). The command line sets them as it
/// builds the options, so that the one check (`StartupConfiguration`) names what the user wrote.
public struct OptionSources: Sendable, Equatable {
    /// Where `routes` came from; `--route` by default.
    public var routes = "--route"
    /// Where `clockOffsetSeconds` came from; nil when set in code (an in-process server).
    public var clockOffset: String?

    public init(routes: String = "--route", clockOffset: String? = nil) {
        self.routes = routes
        self.clockOffset = clockOffset
    }
}
