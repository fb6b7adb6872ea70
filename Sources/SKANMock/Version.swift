/// The version reported by `--version` and `/__admin/health`: the top-level VERSION file's, which the
/// release scripts read (`VersionFileTests` checks that they agree).
public enum SKANMockVersion {
    public static let current = "0.1.0"
}
