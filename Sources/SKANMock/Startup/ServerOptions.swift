import HTTPCore
import SKANDomain

/// Everything `skan-mock` can be told at start-up. Defaults are the documented ones; the command
/// line and the `SKAN_MOCK_*` environment fill them in (see `SKANMockCLI`).
public struct ServerOptions: Sendable {
    public var host = "127.0.0.1"
    public var port = 8080
    /// The conversion model file; nil serves the bundled testing model.
    public var modelPath: String?
    /// Where the journal is written as JSON Lines: a file, `-` for standard output, nil for nowhere.
    public var logPath: String?
    /// `--resume`: read the `--log` file back at start (journal and devices' state).
    public var resume = false
    public var journalSize = 10_000
    /// The most bytes of journal lines kept in memory (`--journal-bytes`); the oldest go first.
    public var journalBytes = 64 << 20
    public var deviceCapacity = 100_000
    /// The most named tenants (`/t/NAME`) kept at once (`--max-tenants`); past it, the least
    /// recently used is dropped.
    public var maxTenants = 64
    /// The most bytes of device state kept (estimated: ids, event names, a share per device); the
    /// least recently seen devices go first. No option: a limit against hostile ids and names.
    public var deviceBytes = DeviceStateStore.defaultMaxBytes
    public var strict = false
    /// When set, every `/__admin` call needs `Authorization: Bearer <token>`.
    public var adminToken: String?
    /// Bound beyond loopback without a token, take admin changes from any machine (`--admin-open`);
    /// by default only from this one.
    public var adminOpen = false
    /// More `Host` names the admin side and the console answer (`--allowed-host`), besides this
    /// machine's own (DNS rebinding, `AdminHostCheck`): a Compose service's name, a QA box's.
    public var allowedHosts: [String] = []
    /// Seconds added to the real clock (time travel across SKAN windows).
    public var clockOffsetSeconds: Int64 = 0
    /// Reload the model when its file changes (checked every second).
    public var watchModel = true
    /// More paths that serve Singular's endpoints (`--route PATH=ENDPOINT`).
    public var routes: [RouteAlias] = []
    /// A second, HTTPS port with the same routes (`--https-port`); nil serves plain HTTP only.
    public var https: HTTPSOptions?
    public var limits = HTTPLimits()
    /// `--upstream`: compare the model's answers with the real service's (shadow), or answer
    /// with the real service's and record the model's beside them (proxy).
    public var upstream: UpstreamOptions?
    /// `--replay`: a replay file (`skan-mock record`) whose answers are served for the requests
    /// it recorded; the model answers the rest, with a `not_recorded` finding.
    public var replayPath: String?
    /// Where the values checked together came from, for the messages that refuse them.
    public var sources = OptionSources()

    public init() {}

    /// 100 years: far past every SKAN window, far from overflowing milliseconds since 1970. The
    /// clock offset stays within it, at start-up and through `PUT /__admin/clock`.
    public static let maxClockOffsetSeconds: Int64 = 3_155_760_000
}
