/// Apple's names for the coarse conversion values 0, 1 and 2, spelled here only: the model file,
/// the postbacks skan-mock predicts and receives, the reports and the simulator read and write
/// them through this (the console's `vocabulary.js` is generated from `names` by Scripts/embed.sh).
public enum CoarseValue {
    /// `low`, `medium`, `high`: each at its value.
    public static let names = ["low", "medium", "high"]

    /// The name of `value`; a value outside 0...2 (which the server never stores) as the nearest.
    public static func name(_ value: Int64) -> String { names[Int(max(0, min(2, value)))] }

    /// The value named `name`; nil for any other word.
    public static func value(named name: String) -> Int64? { names.firstIndex(of: name).map(Int64.init) }
}
