import SKANDomain

/// What the server started with, kept so `POST /__admin/reset?scope=all` can put it back after a
/// test replaced the model or moved the clock.
struct StartupState: Sendable {
    /// The model loaded at start (from `--model` or built in); reloads of the file do not change it.
    let model: ConversionModel
    /// `--clock-offset`.
    let clockOffsetSeconds: Int64
}
