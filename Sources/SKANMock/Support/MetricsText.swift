/// The Prometheus text format as `MetricsExposition` writes it: a family's two header lines, then
/// its samples, a tenant's labelled `tenant="NAME"` first.
struct MetricsText {
    private(set) var text = ""

    mutating func family(_ name: String, _ type: String, _ help: String) {
        text += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
    }

    /// `name{tenant="NAME",labels} value`; no braces when there is no label at all (the default
    /// tenant's series keep the names they always had).
    mutating func sample(_ name: String, _ tenant: String?, _ value: String, labels: String = "") {
        var all = tenant.map { "tenant=\"\($0)\"" } ?? ""
        if !labels.isEmpty { all += all.isEmpty ? labels : "," + labels }
        text += all.isEmpty ? "\(name) \(value)\n" : "\(name){\(all)} \(value)\n"
    }

    mutating func line(_ line: String) {
        text += line + "\n"
    }
}
