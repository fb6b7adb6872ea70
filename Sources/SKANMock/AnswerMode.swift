import SKANDomain

/// How the server answers Singular's requests, decided once at start-up from its options and the
/// same for every tenant: the model alone, a replay file before the model, the upstream as a proxy,
/// or the model shadowed by the upstream. Each tenant's Singular side gets its answer source from
/// it (`source(for:)`), over that tenant's model, devices and faults.
enum AnswerMode: Sendable {
    case model
    case replay(Replay)
    case proxy(Upstream)
    case shadow(Upstream)

    /// An upstream decides over a replay file (the start-up checks refuse both at once).
    init(upstream: Upstream?, replay: Replay?) {
        if let upstream {
            switch upstream.options.mode {
            case .proxy: self = .proxy(upstream)
            case .shadow: self = .shadow(upstream)
            }
        } else if let replay {
            self = .replay(replay)
        } else {
            self = .model
        }
    }

    /// The recording, when one answers first.
    var replay: Replay? {
        if case .replay(let replay) = self { return replay }
        return nil
    }

    /// Whether an upstream answers or is compared with (`--upstream`).
    var hasUpstream: Bool {
        switch self {
        case .proxy, .shadow: true
        case .model, .replay: false
        }
    }

    /// The answer source of one tenant: over its model, devices and faults.
    func source(for tenant: Tenant) -> any AnswerSource {
        let model = ModelAnswerSource(tenant: tenant)
        switch self {
        case .model: return model
        case .replay(let replay): return ReplayAnswerSource(replay: replay, model: model)
        case .proxy(let upstream): return ProxyAnswerSource(tenant: tenant, upstream: upstream)
        case .shadow(let upstream): return ShadowAnswerSource(model: model, upstream: upstream)
        }
    }
}
