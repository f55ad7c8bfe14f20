/// The number the kernel gave a directory watch (`inotify_add_watch`'s return value).
///
/// Two paths that reach the same directory inode — a symlink and its target — share one
/// descriptor, so a descriptor can stand for several paths.
public struct WatchDescriptor: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The kernel's watch descriptor.
    public var rawValue: Int32

    /// Wraps a kernel watch descriptor.
    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// Orders descriptors by number, for stable output.
    public static func < (lhs: WatchDescriptor, rhs: WatchDescriptor) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    /// `wd N`.
    public var description: String { "wd \(rawValue)" }
}
