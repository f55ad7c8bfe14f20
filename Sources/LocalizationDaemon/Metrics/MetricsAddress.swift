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

    /// Whether it is an IPv6 address.
    var isIPv6: Bool {
        if case .ipv6 = self { return true }
        return false
    }

    /// Why it cannot be listened on (`errno`), and what to do: the same words at start and
    /// from `--check-config`.
    func cannotListen(errno code: Int32) -> String {
        let advice =
            switch code {
            case EAFNOSUPPORT:
                "l10nd.service allows Unix sockets only (RestrictAddressFamilies=AF_UNIX, PrivateNetwork=yes): "
                    + "give a socket path, or relax those in a drop-in"
            case EADDRNOTAVAIL:
                "it is no address of this machine: give 127.0.0.1, [::1], 0.0.0.0 or one of its own addresses"
            case EACCES:
                "ports below 1024 need CAP_NET_BIND_SERVICE: choose a port from 1024 up"
            default: "choose a free port or another address, or remove metrics_listen"
            }
        return "metrics_listen \(self): cannot listen (\(String(cString: strerror(code))), errno \(code)); \(advice)"
    }

    /// As the configuration spells it.
    package var description: String {
        switch self {
        case .ipv4(let host, let port): "\(host):\(port)"
        case .ipv6(let host, let port): "[\(host)]:\(port)"
        case .unix(let path): path
        }
    }

    /// Calls `body` with the IP address as a `sockaddr` (and whether it is IPv6); `nil` for
    /// a Unix socket path. The literal was checked when parsed, so it converts here.
    func withSocketAddress<Result>(_ body: (UnsafePointer<sockaddr>, _ isIPv6: Bool) -> Result) -> Result? {
        switch self {
        case .unix: return nil
        case .ipv4(let host, let port):
            var socketAddress = sockaddr_in()
            socketAddress.sin_family = sa_family_t(AF_INET)
            socketAddress.sin_port = port.bigEndian
            guard inet_pton(AF_INET, host, &socketAddress.sin_addr) == 1 else { return nil }
            return Self.asSocketAddress(&socketAddress) { body($0, false) }
        case .ipv6(let host, let port):
            var socketAddress = sockaddr_in6()
            socketAddress.sin6_family = sa_family_t(AF_INET6)
            socketAddress.sin6_port = port.bigEndian
            guard inet_pton(AF_INET6, host, &socketAddress.sin6_addr) == 1 else { return nil }
            return Self.asSocketAddress(&socketAddress) { body($0, true) }
        }
    }

    private static func asSocketAddress<Address, Result>(
        _ address: inout Address, _ body: (UnsafePointer<sockaddr>) -> Result
    ) -> Result {
        withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
    }
}
