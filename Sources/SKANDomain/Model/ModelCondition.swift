/// Where a revenue condition looks: in-app purchases, ad monetisation, or both added together.
public enum RevenueSource: String, Sendable, CaseIterable {
    case iap, admon, both
}

/// Whether a revenue condition looks at the device's total revenue or only this window's.
public enum RevenuePeriod: String, Sendable, CaseIterable {
    case total, window
}

/// "This event, at least `minCount` times in this window" (the current request included).
public struct EventCondition: Sendable, Equatable {
    public var name: String
    public var minCount: Int
}

/// Revenue in the base currency within `[min, max)`; a missing bound is open.
public struct RevenueCondition: Sendable, Equatable {
    public var min: Double?
    public var max: Double?
    public var source: RevenueSource
    public var period: RevenuePeriod
}

/// Whole days since the first call within `[min, max]` (both inclusive: days are counted in whole
/// units, so "days 0-7" means what it says).
public struct DaysCondition: Sendable, Equatable {
    public var min: Int64?
    public var max: Int64?
}

/// A model entry's `when`: every condition present must hold; no condition at all always holds.
public struct ModelCondition: Sendable, Equatable {
    public var event: EventCondition?
    public var revenue: RevenueCondition?
    public var days: DaysCondition?

    public init(event: EventCondition? = nil, revenue: RevenueCondition? = nil, days: DaysCondition? = nil) {
        self.event = event
        self.revenue = revenue
        self.days = days
    }

    func matches(_ context: inout EvaluationContext) -> Bool {
        if let event {
            guard context.eventCount(event.name) >= event.minCount else { return false }
        }
        if let days {
            guard let d = context.daysSinceFirstCall else { return false }
            if let min = days.min, d < min { return false }
            if let max = days.max, d > max { return false }
        }
        if let revenue {
            let amount = context.revenue(source: revenue.source, period: revenue.period)
            if let min = revenue.min, amount < min { return false }
            if let max = revenue.max, amount >= max { return false }
        }
        return true
    }
}

/// Everything a condition can look at for one request, with revenue converted lazily (and once) so
/// that requests against models without revenue conditions pay nothing for it.
struct EvaluationContext {
    var counts: [String: Int]
    var daysSinceFirstCall: Int64?
    var rates: CurrencyRates
    var totalIAP: (Revenue?, String)
    var totalAdmon: (Revenue?, String)
    var windowIAP: (Revenue?, String)
    var windowAdmon: (Revenue?, String)
    var findings: [ValidationFinding] = []
    /// The entries that answered, for coverage.
    var hits = EntryHits()
    /// The four conversions, once each (stored inline: an array here cost an allocation a request).
    private var cache: (Double?, Double?, Double?, Double?) = (nil, nil, nil, nil)

    init(
        counts: [String: Int], daysSinceFirstCall: Int64?, rates: CurrencyRates,
        totalIAP: (Revenue?, String), totalAdmon: (Revenue?, String),
        windowIAP: (Revenue?, String), windowAdmon: (Revenue?, String)
    ) {
        self.counts = counts
        self.daysSinceFirstCall = daysSinceFirstCall
        self.rates = rates
        self.totalIAP = totalIAP
        self.totalAdmon = totalAdmon
        self.windowIAP = windowIAP
        self.windowAdmon = windowAdmon
    }

    func eventCount(_ name: String) -> Int { counts[name] ?? 0 }

    /// The four revenues a condition can look at, each converted once.
    private enum Slot {
        case totalIAP, totalAdmon, windowIAP, windowAdmon

        init(iap: Bool, period: RevenuePeriod) {
            switch (iap, period) {
            case (true, .total): self = .totalIAP
            case (false, .total): self = .totalAdmon
            case (true, .window): self = .windowIAP
            case (false, .window): self = .windowAdmon
            }
        }
    }

    mutating func revenue(source: RevenueSource, period: RevenuePeriod) -> Double {
        switch source {
        case .iap: return converted(Slot(iap: true, period: period))
        case .admon: return converted(Slot(iap: false, period: period))
        case .both: return converted(Slot(iap: true, period: period)) + converted(Slot(iap: false, period: period))
        }
    }

    private mutating func converted(_ slot: Slot) -> Double {
        let cached: Double?
        switch slot {
        case .totalIAP: cached = cache.0
        case .totalAdmon: cached = cache.1
        case .windowIAP: cached = cache.2
        case .windowAdmon: cached = cache.3
        }
        if let cached { return cached }
        let (revenue, name): (Revenue?, String)
        switch slot {
        case .totalIAP: (revenue, name) = totalIAP
        case .totalAdmon: (revenue, name) = totalAdmon
        case .windowIAP: (revenue, name) = windowIAP
        case .windowAdmon: (revenue, name) = windowAdmon
        }
        var unknown: [String] = []
        let value = rates.convert(revenue) { unknown.append($0) }
        for currency in unknown {
            findings.append(
                ValidationFinding(
                    param: name, code: .unknownCurrency,
                    message:
                        "\(name) has \(currency), which the model has no exchange rate for (base \(rates.base)); it counts as 0"
                ))
        }
        switch slot {
        case .totalIAP: cache.0 = value
        case .totalAdmon: cache.1 = value
        case .windowIAP: cache.2 = value
        case .windowAdmon: cache.3 = value
        }
        return value
    }
}
