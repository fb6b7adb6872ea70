/// The version reported by `--version` and `/__admin/health`.
public enum SKANMockVersion {
    public static let current = "0.1.0"
}
