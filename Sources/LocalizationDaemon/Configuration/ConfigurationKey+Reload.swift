extension ConfigurationKey {
    /// Whether a reload can put a new value in effect. The socket is bound at start (or
    /// passed by systemd), and its group given then; so is the metrics endpoint: those wait
    /// for a restart.
    var appliesOnReload: Bool {
        switch self {
        case .socket, .socketGroup, .metricsListen: false
        default: true
        }
    }

    /// The key's value in `configuration`, as the file would spell it (for messages that
    /// say what changed).
    func value(in configuration: DaemonConfiguration) -> String {
        switch self {
        case .resources: configuration.resources.joined(separator: ", ")
        case .socket: configuration.socketPath
        case .developmentLanguage: configuration.developmentLanguage
        case .logLevel: configuration.logLevel.name
        case .settleMilliseconds: String(configuration.settleMilliseconds)
        case .maxMessageBytes: String(configuration.maxMessageBytes)
        case .maxConnections: String(configuration.maxConnections)
        case .idleTimeoutSeconds: String(configuration.idleTimeoutSeconds)
        case .maxOutputBufferBytes: String(configuration.maxOutputBufferBytes)
        case .requestTimeoutSeconds: String(configuration.requestTimeoutSeconds)
        case .maxFileBytes: String(configuration.maxFileBytes)
        case .socketGroup: configuration.socketGroup ?? "(the daemon's own group)"
        case .allowSymlinksOutsideRoots: String(configuration.allowSymlinksOutsideRoots)
        case .metricsListen: configuration.metricsListen?.description ?? "(off)"
        }
    }
}
