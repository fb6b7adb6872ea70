/// Durations in scenario files: seconds as a number, or text such as `90`, `45s`, `30m`, `49h`,
/// `8d`, `1d12h`, so a scenario reads the way people think about SKAN windows.
enum SimulationDuration {
    static func seconds(_ text: String) -> Int64? {
        let trimmed = text.trimmingSpaces
        guard !trimmed.isEmpty else { return nil }
        if let plain = Int64(trimmed) { return plain >= 0 ? plain : nil }
        var total: Int64 = 0
        var digits = ""
        for character in trimmed {
            if character.isASCII, character.isNumber {
                digits.append(character)
                continue
            }
            let unit: Int64
            switch character {
            case "s": unit = 1
            case "m": unit = 60
            case "h": unit = 3600
            case "d": unit = 86_400
            default: return nil
            }
            guard let count = Int64(digits) else { return nil }
            let (product, overflow) = count.multipliedReportingOverflow(by: unit)
            guard !overflow else { return nil }
            let (sum, overflow2) = total.addingReportingOverflow(product)
            guard !overflow2 else { return nil }
            total = sum
            digits = ""
        }
        return digits.isEmpty ? total : nil
    }

    /// The compact text for output: `0s`, `45s`, `3m20s`, `5h10m`, `2d1h`.
    static func text(_ seconds: Int64) -> String {
        let sign = seconds < 0 ? "-" : ""
        let s = abs(seconds)
        if s < 60 { return "\(sign)\(s)s" }
        if s < 3600 { return "\(sign)\(s / 60)m" + (s % 60 == 0 ? "" : "\(s % 60)s") }
        if s < 86_400 { return "\(sign)\(s / 3600)h" + (s % 3600 / 60 == 0 ? "" : "\(s % 3600 / 60)m") }
        return "\(sign)\(s / 86_400)d" + (s % 86_400 / 3600 == 0 ? "" : "\(s % 86_400 / 3600)h")
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
