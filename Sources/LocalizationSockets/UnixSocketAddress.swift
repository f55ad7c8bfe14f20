package import Glibc

/// A Unix domain socket address: a file system path, or an abstract name written `@name`.
///
/// Abstract names (Linux only) live in no directory: the address is a NUL byte followed by
/// the name, and its length counts exactly those bytes — no terminating NUL — which is how
/// systemd spells `NOTIFY_SOCKET=@…`.
package struct UnixSocketAddress: Sendable, Hashable, CustomStringConvertible {
    /// The address as written: `/run/x.sock` or `@name`.
    package let text: String
    private let pathBytes: [UInt8]

    /// Parses `text`; nil when it is empty, relative, or too long for `sun_path` (107 bytes).
    package init?(_ text: String) {
        var bytes: [UInt8]
        if text.hasPrefix("@") {
            bytes = [0] + Array(text.utf8.dropFirst())
            guard bytes.count > 1 else { return nil }
        } else if text.hasPrefix("/") {
            bytes = Array(text.utf8) + [0]
        } else {
            return nil
        }
        let capacity = MemoryLayout.size(ofValue: sockaddr_un().sun_path)
        guard bytes.count <= capacity, !bytes.dropFirst().dropLast(text.hasPrefix("@") ? 0 : 1).contains(0) else {
            return nil
        }
        self.text = text
        self.pathBytes = bytes
    }

    /// Whether the address is in the abstract namespace.
    package var isAbstract: Bool { pathBytes.first == 0 }

    /// Calls `body` with the C address and its exact length.
    package func withSockaddr<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) throws -> Result) rethrows -> Result
    {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: pathBytes)
        }
        // `sun_path` follows the family field; the offset is known at compile time.
        let pathOffset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path) ?? MemoryLayout<sa_family_t>.size
        let length = socklen_t(pathOffset + pathBytes.count)
        return try withUnsafePointer(to: &address) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { try body($0, length) }
        }
    }

    /// The address as written.
    package var description: String { text }
}
