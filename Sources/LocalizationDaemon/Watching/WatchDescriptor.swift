/// The number the kernel gave a directory watch (`inotify_add_watch`'s return value).
///
/// Two paths that reach the same directory inode — a symlink and its target — share one
/// descriptor, so a descriptor can stand for several paths.
package struct WatchDescriptor: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The kernel's watch descriptor.
    package var rawValue: Int32

    /// Wraps a kernel watch descriptor.
    package init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// Orders descriptors by number, for stable output.
    package static func < (lhs: WatchDescriptor, rhs: WatchDescriptor) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    /// `wd N`.
    package var description: String { "wd \(rawValue)" }
}
