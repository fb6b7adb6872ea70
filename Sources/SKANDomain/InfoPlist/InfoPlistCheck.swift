/// The attribution keys of an app's Info.plist checked against Apple's documentation before the
/// build ships (`skan-mock check Info.plist`): a wrong key loses SKAdNetwork attributions or the
/// postback copies silently, and the team learns it weeks later. Each rule cites the page it
/// comes from beside it; each problem is a finding with its key path and what to write instead.
/// Pure: the property list comes already read (`PropertyList.read`).
public struct InfoPlistCheck: Sendable {
    public var findings: [InfoPlistFinding] = []
    /// Where copies of winning postbacks will be posted, from each valid endpoint key.
    public var copies: [PostbackCopyDestination] = []
    /// The attribution keys the file has, in the order they are checked, for the report's first line.
    public var keys: [String] = []

    public var errorCount: Int { findings.filter { $0.severity == .error }.count }

    // Apple's pages, one constant each, cited by the rules below.
    static let skadNetworkItemsPage =
        "https://developer.apple.com/documentation/bundleresources/information-property-list/skadnetworkitems"
    static let reportEndpointPage =
        "https://developer.apple.com/documentation/bundleresources/information-property-list/nsadvertisingattributionreportendpoint"
    static let advertisedAppPage =
        "https://developer.apple.com/documentation/adattributionkit/configuring-an-advertised-app"
    static let copyEndpointKeyPage =
        "https://developer.apple.com/documentation/bundleresources/information-property-list/attributioncopyendpoint"
    static let reengagementCopiesPage =
        "https://developer.apple.com/documentation/bundleresources/information-property-list/eligibleforadattributionkitreengagementpostbackcopies"
    static let attributionRulesPage =
        "https://developer.apple.com/documentation/adattributionkit/configuring-attribution-rules-for-your-app"
    static let overlappingConversionsPage = "https://developer.apple.com/videos/play/wwdc2025/221/"

    static let reengagementCopiesKey = "EligibleForAdAttributionKitReengagementPostbackCopies"
    static let overlappingKey = "EligibleForAdAttributionKitOverlappingConversions"

    /// Every top-level key this check reads, for telling a miscased spelling apart.
    static let knownTopLevelKeys = [
        "SKAdNetworkItems", "NSAdvertisingAttributionReportEndpoint", "AdAttributionKit", "AttributionCopyEndpoint",
        reengagementCopiesKey, overlappingKey, "AdAttributionKitConfigurations"
    ]

    public init(_ plist: PropertyListValue) {
        guard let top = plist.entries else {
            add(
                .error, .file, "root_not_dictionary", at: "",
                "the property list holds a \(plist.typeName), where an Info.plist holds a Dictionary",
                fix: "the app's Info.plist (Foo.app/Info.plist), not another property list",
                reference: Self.skadNetworkItemsPage)
            return
        }
        keys = Self.knownTopLevelKeys.filter { key in top.contains { $0.key == key } }
        miscasedKeys(top)
        if let items = plist["SKAdNetworkItems"] { skadNetworkItems(items) }
        if let endpoint = plist["NSAdvertisingAttributionReportEndpoint"] { reportEndpoint(endpoint) }
        adAttributionKit(plist)
        if let configurations = plist["AdAttributionKitConfigurations"] { attributionRules(configurations) }
        if keys.isEmpty && findings.isEmpty {
            add(
                .note, .file, "no_attribution_keys", at: "",
                "none of the attribution keys (SKAdNetworkItems, NSAdvertisingAttributionReportEndpoint, AttributionCopyEndpoint, AdAttributionKitConfigurations) is in this Info.plist",
                reference: Self.reportEndpointPage)
        }
    }

    private mutating func add(
        _ severity: InfoPlistFinding.Severity, _ rule: InfoPlistRule, _ code: String, at path: String,
        _ message: String, fix: String? = nil, reference: String
    ) {
        findings.append(InfoPlistFinding(severity, rule, code, at: path, message, fix: fix, reference: reference))
    }

    /// Keys are case-sensitive: `SkAdNetworkItems` is another key, which the system never reads
    /// (https://developer.apple.com/documentation/bundleresources/information-property-list/skadnetworkitems:
    /// "Ad network IDs are case-sensitive"; every key Apple lists is written in one case).
    private mutating func miscasedKeys(_ top: [PropertyListEntry]) {
        for entry in top where !Self.knownTopLevelKeys.contains(entry.key) {
            guard let known = Self.knownTopLevelKeys.first(where: { $0.lowercased() == entry.key.lowercased() }) else {
                continue
            }
            let rule: InfoPlistRule =
                known == "SKAdNetworkItems"
                ? .skadNetworkItems : known == "NSAdvertisingAttributionReportEndpoint" ? .reportEndpoint : .optIns
            add(
                .error, rule, "key_case", at: entry.key,
                "the key is spelt \(entry.key); Info.plist keys are case-sensitive, so the system never reads it",
                fix: known, reference: known == "SKAdNetworkItems" ? Self.skadNetworkItemsPage : Self.reportEndpointPage
            )
        }
    }

    // MARK: SKAdNetworkItems

    /// https://developer.apple.com/documentation/bundleresources/information-property-list/skadnetworkitems
    /// "An array of dictionaries", each with one `SKAdNetworkIdentifier`; "Ad network IDs are
    /// case-sensitive and are in lowercase." An ID ends in `.skadnetwork`; one dictionary per network.
    private mutating func skadNetworkItems(_ items: PropertyListValue) {
        let page = Self.skadNetworkItemsPage
        guard let array = items.arrayValue else {
            add(
                .error, .skadNetworkItems, "skadnetwork_items_type", at: "SKAdNetworkItems",
                "a \(items.typeName), where Apple documents an Array of Dictionaries",
                fix: "<array><dict><key>SKAdNetworkIdentifier</key><string>ID.skadnetwork</string></dict>...</array>",
                reference: page)
            return
        }
        var seen: [String: Int] = [:]
        for (index, item) in array.enumerated() {
            let itemPath = "SKAdNetworkItems[\(index)]"
            guard let entries = item.entries else {
                let fix =
                    item.stringValue.map { "<dict><key>SKAdNetworkIdentifier</key><string>\($0)</string></dict>" }
                    ?? "<dict><key>SKAdNetworkIdentifier</key><string>ID.skadnetwork</string></dict>"
                add(
                    .error, .skadNetworkItems, "skadnetwork_item_type", at: itemPath,
                    "a \(item.typeName), where each item is a Dictionary with an SKAdNetworkIdentifier", fix: fix,
                    reference: page)
                continue
            }
            guard let value = item["SKAdNetworkIdentifier"] else {
                if let miscased = entries.first(where: { $0.key.lowercased() == "skadnetworkidentifier" }) {
                    add(
                        .error, .skadNetworkItems, "key_case", at: "\(itemPath).\(miscased.key)",
                        "the key is spelt \(miscased.key); keys are case-sensitive, so this network's ID is never read",
                        fix: "SKAdNetworkIdentifier", reference: page)
                } else {
                    add(
                        .error, .skadNetworkItems, "skadnetwork_identifier_missing", at: itemPath,
                        "a dictionary without SKAdNetworkIdentifier (it has \(entries.isEmpty ? "no keys" : entries.map(\.key).joined(separator: ", ")))",
                        fix: "<key>SKAdNetworkIdentifier</key><string>ID.skadnetwork</string>", reference: page)
                }
                continue
            }
            let path = "\(itemPath).SKAdNetworkIdentifier"
            guard let id = value.stringValue else {
                add(
                    .error, .skadNetworkItems, "skadnetwork_identifier_type", at: path,
                    "a \(value.typeName), where an ad network ID is a String", reference: page)
                continue
            }
            var wanted = id
            if id.contains(where: \.isWhitespace) {
                wanted = String(wanted.filter { !$0.isWhitespace })
                add(
                    .error, .skadNetworkItems, "skadnetwork_identifier_whitespace", at: path,
                    "\"\(id)\" has white space, which no ad network ID has", fix: wanted, reference: page)
            }
            if wanted != wanted.lowercased() {
                wanted = wanted.lowercased()
                add(
                    .error, .skadNetworkItems, "skadnetwork_identifier_case", at: path,
                    "\"\(id)\" has upper case; ad network IDs are case-sensitive and in lower case, so this network's installs are not attributed",
                    fix: wanted, reference: page)
            }
            if !wanted.hasSuffix(".skadnetwork") || wanted.count == ".skadnetwork".count {
                add(
                    .error, .skadNetworkItems, "skadnetwork_identifier_suffix", at: path,
                    "\"\(id)\" does not end in .skadnetwork, as every ad network ID does (cstr6suwn9.skadnetwork)",
                    fix: "the ID the ad network publishes, ending in .skadnetwork", reference: page)
            }
            if let first = seen[wanted] {
                add(
                    .error, .skadNetworkItems, "skadnetwork_identifier_duplicate", at: path,
                    "\"\(id)\" is listed already, at SKAdNetworkItems[\(first)]\(array[first]["SKAdNetworkIdentifier"]?.stringValue == id ? "" : " (written differently)"); provide one dictionary for each ad network",
                    fix: "remove SKAdNetworkItems[\(index)]", reference: page)
            } else {
                seen[wanted] = index
            }
        }
    }

    // MARK: Endpoints

    /// https://developer.apple.com/documentation/bundleresources/information-property-list/nsadvertisingattributionreportendpoint
    /// "a valid URL containing your domain name ... in the format https://example.com"; the system
    /// posts to `https://example.com/.well-known/private-click-measurement/report-attribution/`
    /// (Private Click Measurement) and `https://example.com/.well-known/skadnetwork/report-attribution/`
    /// (SKAdNetwork copies), and "uses only the registrable part of the domain name".
    private mutating func reportEndpoint(_ value: PropertyListValue) {
        endpoint(
            value, at: "NSAdvertisingAttributionReportEndpoint", rule: .reportEndpoint,
            page: Self.reportEndpointPage,
            copies: [
                ("SKAdNetwork install-validation postback copies", "/.well-known/skadnetwork/report-attribution/"),
                (
                    "Private Click Measurement attribution reports",
                    "/.well-known/private-click-measurement/report-attribution/"
                )
            ])
    }

    /// One endpoint key's value: a String that is an `https` origin, with no user, port, path,
    /// query or fragment; a local host is said to be so; where copies go, when it is valid.
    private mutating func endpoint(
        _ value: PropertyListValue, at path: String, rule: InfoPlistRule, page: String,
        copies: [(what: String, path: String)]
    ) {
        guard let text = value.stringValue else {
            add(
                .error, rule, "endpoint_type", at: path,
                "a \(value.typeName), where Apple documents a String (https://example.com)",
                fix: "<string>https://example.com</string>", reference: page)
            return
        }
        let trimmed = String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        guard let url = AttributionEndpoint(trimmed) else {
            add(
                .error, rule, "endpoint_not_url", at: path,
                "\"\(text)\" is not a URL with a domain name, where Apple documents the form https://example.com",
                fix: "https://YOUR-DOMAIN", reference: page)
            return
        }
        let before = findings.count
        if trimmed != text {
            add(
                .error, rule, "endpoint_whitespace", at: path, "\"\(text)\" has white space around it", fix: url.origin,
                reference: page)
        }
        if url.scheme != "https" {
            add(
                .error, rule, "endpoint_scheme", at: path,
                "\"\(text)\" is \(url.scheme), where the system posts over https only",
                fix: url.origin, reference: page)
        }
        var extras: [String] = []
        if url.userInfo != nil { extras.append("a user name") }
        if url.port != nil { extras.append("a port (:\(url.port!))") }
        if !url.path.isEmpty && url.path != "/" { extras.append("a path (\(url.path))") }
        if url.query != nil { extras.append("a query (?\(url.query!))") }
        if url.fragment != nil { extras.append("a fragment (#\(url.fragment!))") }
        if !extras.isEmpty {
            let code =
                url.path.count > 1
                ? "endpoint_path"
                : url.port != nil ? "endpoint_port" : url.query != nil ? "endpoint_query" : "endpoint_extra"
            add(
                .error, rule, code, at: path,
                "\"\(text)\" has \(extras.joined(separator: ", ")): the system builds the well-known URL from the domain alone (so copies never reach \(url.path.count > 1 ? url.path : "that place")), where Apple documents the form https://example.com",
                fix: url.origin, reference: page)
        }
        let host = url.registrableDomain
        if url.isLocal {
            add(
                .note, rule, "endpoint_local", at: path,
                "\"\(url.host)\" is a local or private host: a QA build pointing its copies at skan-mock's HTTPS listener (serve --https), which takes them at \(copies.map(\.path).filter { $0.contains("skadnetwork") || $0.contains("appattribution") }.joined(separator: " and ")); a release build names the production domain",
                reference: page)
        } else if url.isAddress {
            add(
                .error, rule, "endpoint_address", at: path,
                "\"\(url.host)\" is an IP address, where Apple documents a domain name (the system uses its registrable part)",
                fix: "https://YOUR-DOMAIN", reference: page)
        } else if host != url.host {
            add(
                .note, rule, "endpoint_subdomain", at: path,
                "the system uses only the registrable part of the domain name and ignores subdomains: copies go to \(host), not \(url.host) (as skan-mock reads the domain; the Public Suffix List decides)",
                reference: page)
        }
        guard findings[before...].allSatisfy({ $0.severity == .note }) else { return }
        let origin = url.isAddress ? url.origin : "https://\(host)"
        for copy in copies {
            self.copies.append(PostbackCopyDestination(keyPath: path, what: copy.what, url: origin + copy.path))
        }
    }

    // MARK: AdAttributionKit

    /// https://developer.apple.com/documentation/adattributionkit/configuring-an-advertised-app
    /// "add the AttributionCopyEndpoint key" through Xcode's "AdAttributionKit - Postback Copy URL",
    /// a String "in the format of https://example.com"; the system posts to
    /// `https://example.com/.well-known/appattribution/report-attribution/`, using "the registrable
    /// part of the domain name". The key sits in the `AdAttributionKit` dictionary, as Xcode writes
    /// it; Apple's key page (https://developer.apple.com/documentation/bundleresources/information-property-list/attributioncopyendpoint)
    /// lists it among the top-level keys, and apps ship it both ways, so both are read.
    private mutating func adAttributionKit(_ plist: PropertyListValue) {
        let aakPage = Self.advertisedAppPage
        var dictionary: [PropertyListEntry] = []
        if let aak = plist["AdAttributionKit"] {
            if let entries = aak.entries {
                dictionary = entries
            } else {
                add(
                    .error, .copyEndpoint, "adattributionkit_type", at: "AdAttributionKit",
                    "a \(aak.typeName), where AdAttributionKit is a Dictionary holding AttributionCopyEndpoint",
                    fix: "<dict><key>AttributionCopyEndpoint</key><string>https://example.com</string></dict>",
                    reference: aakPage)
            }
        }
        let nested = dictionary.last { $0.key == "AttributionCopyEndpoint" }?.value
        let flat = plist["AttributionCopyEndpoint"]
        let copies = [("AdAttributionKit postback copies", "/.well-known/appattribution/report-attribution/")]
        if let nested {
            endpoint(
                nested, at: "AdAttributionKit.AttributionCopyEndpoint", rule: .copyEndpoint, page: aakPage,
                copies: copies)
        }
        if let flat {
            if let nested, nested != flat {
                add(
                    .error, .copyEndpoint, "copy_endpoint_twice", at: "AttributionCopyEndpoint",
                    "a second AttributionCopyEndpoint, \(flat.stringValue.map { "\"\($0)\"" } ?? "a \(flat.typeName)"), besides AdAttributionKit.AttributionCopyEndpoint \(nested.stringValue.map { "\"\($0)\"" } ?? ""): the copies go to one of them",
                    fix: "one AttributionCopyEndpoint, in the AdAttributionKit dictionary", reference: aakPage)
            } else if nested == nil {
                endpoint(
                    flat, at: "AttributionCopyEndpoint", rule: .copyEndpoint, page: Self.copyEndpointKeyPage,
                    copies: copies)
            }
        }
        // https://developer.apple.com/documentation/bundleresources/information-property-list/eligibleforadattributionkitreengagementpostbackcopies
        // "A Boolean value that indicates whether the developer receives copies of AdAttributionKit
        // reengagement postbacks" (Xcode: "AdAttributionKit - Opt in for Reengagement Postback Copies").
        // https://developer.apple.com/videos/play/wwdc2025/221/ (What's new in AdAttributionKit):
        // overlapping re-engagement conversions need EligibleForAdAttributionKitOverlappingConversions, YES.
        for (key, page) in [
            (Self.reengagementCopiesKey, Self.reengagementCopiesPage),
            (Self.overlappingKey, Self.overlappingConversionsPage)
        ] {
            for (path, value) in [
                ("AdAttributionKit.\(key)", dictionary.last { $0.key == key }?.value), (key, plist[key])
            ] {
                guard let value else { continue }
                if value.boolValue == nil {
                    let yes =
                        ["yes", "true", "1"].contains(value.stringValue?.lowercased() ?? "")
                        || { if case .integer(1) = value { true } else { false } }()
                    add(
                        .error, .optIns, "opt_in_type", at: path,
                        "a \(value.typeName)\(value.stringValue.map { " \"\($0)\"" } ?? ""), where Apple documents a Boolean: the system does not read it as YES",
                        fix: yes ? "<true/>" : "<true/> or <false/>", reference: page)
                } else if key == Self.reengagementCopiesKey, value.boolValue == true, nested == nil, flat == nil {
                    add(
                        .error, .optIns, "opt_in_without_endpoint", at: path,
                        "opts in to copies of re-engagement postbacks, but no AttributionCopyEndpoint says where they go",
                        fix: "AdAttributionKit.AttributionCopyEndpoint: https://example.com", reference: aakPage)
                }
            }
        }
        // Keys in the AdAttributionKit dictionary that Apple documents under other names.
        let documented: Set<String> = ["AttributionCopyEndpoint", Self.reengagementCopiesKey, Self.overlappingKey]
        for entry in dictionary where !documented.contains(entry.key) {
            let lower = entry.key.lowercased()
            let fix =
                lower.contains("reengagement") || lower.contains("re-engagement")
                ? Self.reengagementCopiesKey
                : lower.contains("overlap")
                    ? Self.overlappingKey
                    : lower.contains("endpoint") || lower.contains("url") ? "AttributionCopyEndpoint" : nil
            add(
                .error, fix == "AttributionCopyEndpoint" ? .copyEndpoint : .optIns, "adattributionkit_unknown_key",
                at: "AdAttributionKit.\(entry.key)",
                "not a key Apple documents for AdAttributionKit, so the system ignores it", fix: fix,
                reference: fix == Self.reengagementCopiesKey ? Self.reengagementCopiesPage : aakPage)
        }
    }

    // MARK: AdAttributionKitConfigurations

    /// https://developer.apple.com/documentation/adattributionkit/configuring-attribution-rules-for-your-app
    /// `AdAttributionKitConfigurations` (a Dictionary) holds `AttributionWindows` and `AttributionCooldown`.
    private mutating func attributionRules(_ value: PropertyListValue) {
        let page = Self.attributionRulesPage
        guard let entries = value.entries else {
            add(
                .error, .configurations, "configurations_type", at: "AdAttributionKitConfigurations",
                "a \(value.typeName), where Apple documents a Dictionary holding AttributionWindows and AttributionCooldown",
                reference: page)
            return
        }
        for entry in entries {
            let path = "AdAttributionKitConfigurations.\(entry.key)"
            switch entry.key {
            case "AttributionWindows": attributionWindows(entry.value, at: path)
            case "AttributionCooldown": attributionCooldown(entry.value, at: path)
            default:
                let fix = ["AttributionWindows", "AttributionCooldown"].first {
                    $0.lowercased() == entry.key.lowercased()
                }
                add(
                    .error, .configurations, "configurations_unknown_key", at: path,
                    "not a key Apple documents in AdAttributionKitConfigurations (AttributionWindows, AttributionCooldown), so the system ignores it",
                    fix: fix, reference: page)
            }
        }
    }

    /// https://developer.apple.com/documentation/adattributionkit/configuring-attribution-rules-for-your-app
    /// `AttributionWindows` holds `global` and one dictionary per ad network ID, each
    /// an `install` dictionary (attribution windows apply to installs) with `click` "from 1 to 30
    /// days", `view` "from 1 to 7 days", and, for an ad network only, `ignoreInteractionType`
    /// `view` or `click` ("The system doesn't recognize ignored interaction types in global
    /// configurations").
    private mutating func attributionWindows(_ value: PropertyListValue, at path: String) {
        let page = Self.attributionRulesPage
        guard let networks = value.entries else {
            add(
                .error, .configurations, "windows_type", at: path,
                "a \(value.typeName), where Apple documents a Dictionary of global and ad network IDs", reference: page)
            return
        }
        for network in networks {
            let networkPath = "\(path).\(network.key)"
            let isGlobal = network.key == "global"
            if !isGlobal && network.key.lowercased() == "global" {
                add(
                    .error, .configurations, "key_case", at: networkPath,
                    "the key is spelt \(network.key); keys are case-sensitive, so it is read as an ad network ID",
                    fix: "global", reference: page)
            }
            guard let kinds = network.value.entries else {
                add(
                    .error, .configurations, "windows_type", at: networkPath,
                    "a \(network.value.typeName), where Apple documents a Dictionary holding install", reference: page)
                continue
            }
            for kind in kinds {
                let kindPath = "\(networkPath).\(kind.key)"
                guard kind.key == "install" else {
                    add(
                        .error, .configurations, "windows_unknown_key", at: kindPath,
                        "not a key Apple documents here: attribution windows are set for install only", fix: "install",
                        reference: page)
                    continue
                }
                guard let settings = kind.value.entries else {
                    add(
                        .error, .configurations, "windows_type", at: kindPath,
                        "a \(kind.value.typeName), where Apple documents a Dictionary of click, view and ignoreInteractionType",
                        reference: page)
                    continue
                }
                for setting in settings {
                    let settingPath = "\(kindPath).\(setting.key)"
                    switch setting.key {
                    case "click": days(setting.value, at: settingPath, in: 1...30)
                    case "view": days(setting.value, at: settingPath, in: 1...7)
                    case "ignoreInteractionType":
                        if isGlobal {
                            add(
                                .error, .configurations, "ignore_in_global", at: settingPath,
                                "ignoreInteractionType in the global configuration, where the system does not recognize it: only an ad network's configuration can ignore an interaction type",
                                fix: "move it into an ad network's install dictionary", reference: page)
                        } else if setting.value.stringValue != "view" && setting.value.stringValue != "click" {
                            add(
                                .error, .configurations, "ignore_value", at: settingPath,
                                "\(setting.value.stringValue.map { "\"\($0)\"" } ?? "a \(setting.value.typeName)"), where Apple documents the String view or click",
                                fix: setting.value.stringValue?.lowercased() == "view"
                                    ? "view"
                                    : setting.value.stringValue?.lowercased() == "click" ? "click" : "view or click",
                                reference: page)
                        }
                    default:
                        add(
                            .error, .configurations, "windows_unknown_key", at: settingPath,
                            "not a key Apple documents in an install window (click, view, ignoreInteractionType), so the system ignores it",
                            fix: ["click", "view", "ignoreInteractionType"].first {
                                $0.lowercased() == setting.key.lowercased()
                            },
                            reference: page)
                    }
                }
            }
        }
    }

    /// https://developer.apple.com/documentation/adattributionkit/configuring-attribution-rules-for-your-app
    /// `AttributionCooldown` holds `install-cooldown-hours` and
    /// `re-engagement-cooldown-hours`, Numbers of hours, "a range of 0 to 720 hours".
    private mutating func attributionCooldown(_ value: PropertyListValue, at path: String) {
        let page = Self.attributionRulesPage
        guard let settings = value.entries else {
            add(
                .error, .configurations, "cooldown_type", at: path,
                "a \(value.typeName), where Apple documents a Dictionary of install-cooldown-hours and re-engagement-cooldown-hours",
                reference: page)
            return
        }
        for setting in settings {
            let settingPath = "\(path).\(setting.key)"
            switch setting.key {
            case "install-cooldown-hours", "re-engagement-cooldown-hours":
                hours(setting.value, at: settingPath)
            case "reengagement-cooldown-hours":
                // The WWDC25 session's slide writes it so; the documentation page does not.
                hours(setting.value, at: settingPath)
                add(
                    .note, .configurations, "cooldown_spelling", at: settingPath,
                    "Apple's documentation page spells this key re-engagement-cooldown-hours (the WWDC25 session's slide writes reengagement-cooldown-hours); write the documented one",
                    fix: "re-engagement-cooldown-hours", reference: page)
            default:
                add(
                    .error, .configurations, "cooldown_unknown_key", at: settingPath,
                    "not a key Apple documents in AttributionCooldown (install-cooldown-hours, re-engagement-cooldown-hours), so the system ignores it",
                    fix: setting.key.lowercased().contains("install")
                        ? "install-cooldown-hours" : "re-engagement-cooldown-hours",
                    reference: page)
            }
        }
    }

    private mutating func days(_ value: PropertyListValue, at path: String, in range: ClosedRange<Int64>) {
        number(value, at: path, in: range, unit: "days", code: "window_range")
    }

    private mutating func hours(_ value: PropertyListValue, at path: String) {
        number(value, at: path, in: 0...720, unit: "hours", code: "cooldown_range")
    }

    private mutating func number(
        _ value: PropertyListValue, at path: String, in range: ClosedRange<Int64>, unit: String, code: String
    ) {
        let page = Self.attributionRulesPage
        let whole: Int64?
        switch value {
        case .integer(let n): whole = n
        case .real(let r) where r == r.rounded() && abs(r) < 1e15: whole = Int64(r)
        default: whole = nil
        }
        guard let whole else {
            add(
                .error, .configurations, "\(code.prefix { $0 != "_" })_type", at: path,
                "\(value.stringValue.map { "the String \"\($0)\"" } ?? "a \(value.typeName)"), where Apple documents a Number of \(unit) (\(range.lowerBound) to \(range.upperBound))",
                fix: value.stringValue.flatMap { Int64($0) }.map { "<integer>\($0)</integer>" }, reference: page)
            return
        }
        if !range.contains(whole) {
            add(
                .error, .configurations, code, at: path,
                "\(whole) \(unit), outside the \(range.lowerBound) to \(range.upperBound) Apple documents",
                fix: String(min(max(whole, range.lowerBound), range.upperBound)), reference: page)
        }
    }
}
