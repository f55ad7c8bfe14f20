import Foundation
import Glibc
import LocalizationCore

/// Whether `metrics_listen` could be bound now, for `--check-config`: the address is bound
/// and closed at once (a TCP address), or its path and directory looked at (a Unix socket),
/// as `MetricsHTTPServer` would bind it at start.
///
/// An address in use is not always a mistake: the check runs beside the running daemon,
/// whose own endpoint holds it. The holder is looked up (`/proc/net`, then the processes
/// holding that socket): a running `l10nd` is said as such; another process, or one this
/// user may not look at, is said as what a start would fail on.
enum MetricsAddressProbe {
    /// What binding the address now would do.
    enum Outcome: Equatable {
        /// It can be bound.
        case free
        /// A running l10nd (this process id) listens there: its own endpoint.
        case heldByL10nd(pid: Int32)
        /// A start would fail: why, and what to do.
        case unbindable(String)
    }

    /// Binds `address` (and closes it at once), or looks at its path.
    static func probe(_ address: MetricsAddress) -> Outcome {
        switch address {
        case .unix(let path): return probeUnix(path)
        case .ipv4(_, let port), .ipv6(_, let port):
            let descriptor = socket(
                address.isIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard descriptor >= 0 else { return .unbindable(address.cannotListen(errno: errno)) }
            defer { close(descriptor) }
            // As libmicrohttpd binds it: a port in TIME_WAIT is no obstacle.
            var on: Int32 = 1
            setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
            let bound = address.withSocketAddress { socketAddress, isIPv6 in
                bind(
                    descriptor, socketAddress,
                    socklen_t(isIPv6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)) == 0
                    ? 0 : errno
            }
            switch bound {
            case 0?: return .free
            case EADDRINUSE?: return holder(of: listeningTCPInodes(port: port), address: address)
            case let code?: return .unbindable(address.cannotListen(errno: code))
            case nil: return .unbindable("metrics_listen \(address): not an address")
            }
        }
    }

    private static func probeUnix(_ path: String) -> Outcome {
        let address = MetricsAddress.unix(path)
        var info = stat()
        guard lstat(path, &info) == 0 else {
            let directory = (path as NSString).deletingLastPathComponent
            if access(directory, W_OK | X_OK) != 0 {
                return .unbindable(
                    "metrics_listen \(path): cannot create a socket in \(directory) "
                        + "(\(String(cString: strerror(errno)))); create the directory, writable by the user l10nd runs as"
                )
            }
            return .free
        }
        guard info.st_mode & S_IFMT == S_IFSOCK else {
            return .unbindable("metrics_listen \(path): exists and is not a socket; l10nd would not replace it")
        }
        let inodes = listeningUnixInodes(path: path)
        // A socket file nobody listens on (a crash) is replaced at start.
        return inodes.isEmpty ? .free : holder(of: inodes, address: address)
    }

    /// Who holds one of `inodes` (listening sockets): a running l10nd, someone else, or
    /// unknown (another user's process, which this one may not look at).
    private static func holder(of inodes: Set<UInt64>, address: MetricsAddress) -> Outcome {
        let inUse = "metrics_listen \(address): in use"
        guard !inodes.isEmpty, let processes = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else {
            return .unbindable("\(inUse); choose a free port or another address, or remove metrics_listen")
        }
        let own = getpid()
        for name in processes {
            guard let pid = Int32(name), pid != own,
                let descriptors = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")
            else { continue }
            let holds = descriptors.contains { descriptor in
                guard
                    let target = try? FileManager.default.destinationOfSymbolicLink(
                        atPath: "/proc/\(pid)/fd/\(descriptor)"),
                    target.hasPrefix("socket:["), let inode = UInt64(target.dropFirst(8).dropLast())
                else { return false }
                return inodes.contains(inode)
            }
            guard holds else { continue }
            let command = ((try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) ?? "")
                .trimmingCharacters(in: .whitespacesAndNewlines)
            if command == "l10nd" { return .heldByL10nd(pid: pid) }
            return .unbindable(
                "\(inUse) by \(DisplayText.escaped(command)) (pid \(pid)); choose a free port or another address, "
                    + "or remove metrics_listen")
        }
        return .unbindable(
            "\(inUse) by a process this user may not look at (run the check as root to tell whether it is the running "
                + "l10nd); a start would fail unless that is l10nd's own endpoint")
    }

    /// The inodes of the TCP sockets listening on `port` (`/proc/net/tcp` and `tcp6`).
    private static func listeningTCPInodes(port: UInt16) -> Set<UInt64> {
        var inodes = Set<UInt64>()
        for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
            for fields in rows(of: table) where fields.count > 9 && fields[3] == "0A" {
                guard let local = fields[1].split(separator: ":").last, UInt16(local, radix: 16) == port,
                    let inode = UInt64(fields[9])
                else { continue }
                inodes.insert(inode)
            }
        }
        return inodes
    }

    /// The inodes of the Unix sockets listening at `path` (`/proc/net/unix`; flag 0x10000,
    /// `__SO_ACCEPTCON`, marks a listener).
    private static func listeningUnixInodes(path: String) -> Set<UInt64> {
        Set(
            rows(of: "/proc/net/unix").compactMap { fields in
                guard fields.count > 7, fields[7] == path, let flags = UInt32(fields[3], radix: 16),
                    flags & 0x10000 != 0
                else { return nil }
                return UInt64(fields[6])
            })
    }

    /// The rows of a `/proc/net` table after its heading, split at blanks.
    private static func rows(of table: String) -> [[String]] {
        // Read to its end: a /proc file says size 0, and a busy machine's tables run to many pages.
        let text = String(decoding: FileHandle(forReadingAtPath: table)?.readDataToEndOfFile() ?? Data(), as: UTF8.self)
        return text.split(separator: "\n").dropFirst().map { $0.split(separator: " ").map(String.init) }
    }
}
