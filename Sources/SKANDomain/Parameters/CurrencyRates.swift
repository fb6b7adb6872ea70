/// Exchange rates from the model file, so that revenue in several currencies can be compared with
/// one threshold. A rate is the value of one unit of that currency in the base currency.
public struct CurrencyRates: Sendable, Equatable {
    public var base: String
    public var rates: [String: Double]

    public init(base: String = "USD", rates: [String: Double] = [:]) {
        self.base = base
        self.rates = rates
    }

    /// The rate for `currency`, 1 for the base currency, nil when the model has none.
    public func rate(for currency: String) -> Double? {
        currency == base ? 1 : rates[currency]
    }

    /// The sum of `revenue` in the base currency. Currencies without a rate count as 0 and are
    /// reported through `unknown` so that the request gets a finding.
    public func convert(_ revenue: Revenue?, unknown: (String) -> Void) -> Double {
        guard let revenue else { return 0 }
        var total = 0.0
        for a in revenue.amounts {
            if let rate = rate(for: a.currency) {
                total += a.amount * rate
            } else if a.amount != 0 {
                unknown(a.currency)
            }
        }
        return total
    }
}
