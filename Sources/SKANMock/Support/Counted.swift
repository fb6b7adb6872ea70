/// "1 device", "3 devices": the start lines and notes count things a person reads, and "1 devices"
/// reads as a bug.
enum Counted {
    static func text(_ count: Int, _ singular: String, plural: String? = nil) -> String {
        "\(count) " + (count == 1 ? singular : plural ?? singular + "s")
    }
}
