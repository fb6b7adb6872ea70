import SKANDomain

/// What the server started with, kept so `POST /__admin/reset?scope=all` can put it back after a
/// test moved the clock. The model it brings back is each tenant's own (`Tenant.birthModel`).
struct StartupState: Sendable {
    /// `--clock-offset`.
    let clockOffsetSeconds: Int64
}
