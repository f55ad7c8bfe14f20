import Glibc

/// Where `metrics_listen` says the HTTP metrics endpoint listens: a loopback-style
/// `host:port` (an IPv4 literal, or an IPv6 literal in brackets) or an absolute Unix socket path.
///
/// Only IP literals are taken (no host names): a name would need a resolver at start and
/// could mean another address on every start.
package enum MetricsAddress: Sendable, Hashable, CustomStringConvertible {
    case ipv4(String, port: UInt16)
    case ipv6(String, port: UInt16)
    case unix(String)

    /// Parses `value`; nil when it is none of the three forms.
    package init?(_ value: String) {
        if value.hasPrefix("/") {
            guard value.utf8.count <= 107, !value.utf8.contains(0), !value.hasSuffix("/") else { return nil }
            self = .unix(value)
            return
        }
        guard let colon = value.lastIndex(of: ":"), let port = UInt16(value[value.index(after: colon)...]) else {
            return nil
        }
        let host = String(value[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") {
            let inner = String(host.dropFirst().dropLast())
            var address = in6_addr()
            guard inet_pton(AF_INET6, inner, &address) == 1 else { return nil }
            self = .ipv6(inner, port: port)
        } else {
            var address = in_addr()
            guard inet_pton(AF_INET, host, &address) == 1 else { return nil }
            self = .ipv4(host, port: port)
        }
    }

    /// As the configuration spells it.
    package var description: String {
        switch self {
        case .ipv4(let host, let port): "\(host):\(port)"
        case .ipv6(let host, let port): "[\(host)]:\(port)"
        case .unix(let path): path
        }
    }
}
