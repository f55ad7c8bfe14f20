/// One thing that happened in a watched directory, copied out of the kernel's buffer.
///
/// Besides the kernel's events the source synthesises two kinds, both meaning "you may have
/// missed something, rescan": `.queueOverflow` (the kernel dropped events) and `.needsRescan`
/// (an unknown watch descriptor, a watch that could not be added); `message` says why.
package struct FileSystemEvent: Sendable, Hashable, CustomStringConvertible {
    /// What happened, as a set of flags (the kernel's `IN_*` bits, under Swift names).
    ///
    /// The raw values are this type's own, not the kernel's: the inotify backend translates
    /// them one by one, so nothing else in the daemon depends on Linux constants.
    package struct Mask: OptionSet, Sendable, Hashable {
        /// The flag bits.
        package var rawValue: UInt32
        /// Creates a mask from flag bits.
        package init(rawValue: UInt32) { self.rawValue = rawValue }

        /// `IN_CREATE`: a name appeared in the directory.
        package static let created = Mask(rawValue: 1 << 0)
        /// `IN_DELETE`: a name was removed from the directory.
        package static let deleted = Mask(rawValue: 1 << 1)
        /// `IN_MOVED_FROM`: a name was renamed away (pairs with `.movedTo` by `cookie`).
        package static let movedFrom = Mask(rawValue: 1 << 2)
        /// `IN_MOVED_TO`: a name was renamed into place.
        package static let movedTo = Mask(rawValue: 1 << 3)
        /// `IN_CLOSE_WRITE`: a file opened for writing was closed.
        package static let closedAfterWrite = Mask(rawValue: 1 << 4)
        /// `IN_ATTRIB`: metadata changed (permissions, timestamps, link count).
        package static let attributesChanged = Mask(rawValue: 1 << 5)
        /// `IN_MODIFY`: a file was written to.
        package static let modified = Mask(rawValue: 1 << 6)
        /// `IN_DELETE_SELF`: the watched directory itself was deleted.
        package static let deletedSelf = Mask(rawValue: 1 << 7)
        /// `IN_MOVE_SELF`: the watched directory itself was moved.
        package static let movedSelf = Mask(rawValue: 1 << 8)
        /// `IN_UNMOUNT`: the file system holding the directory was unmounted.
        package static let unmounted = Mask(rawValue: 1 << 9)
        /// `IN_IGNORED`: the watch is gone; its descriptor means nothing from now on.
        package static let watchRemoved = Mask(rawValue: 1 << 10)
        /// `IN_ISDIR`: the name is a directory.
        package static let isDirectory = Mask(rawValue: 1 << 11)
        /// `IN_Q_OVERFLOW`: the kernel's queue overflowed and events were lost.
        package static let queueOverflow = Mask(rawValue: 1 << 12)
        /// Synthesised: the source lost track (unknown descriptor, failed watch); rescan.
        package static let needsRescan = Mask(rawValue: 1 << 13)
    }

    /// The watch the event belongs to; nil for events about the whole source (overflow).
    package var watch: WatchDescriptor?
    /// What happened.
    package var mask: Mask
    /// Pairs a `.movedFrom` with its `.movedTo`; 0 otherwise.
    package var cookie: UInt32
    /// The name inside the watched directory; empty when the event is about the directory itself.
    package var name: String
    /// The watched directory's path as the source knows it, when it knows it.
    package var directory: String?
    /// Why a synthesised event was sent.
    package var message: String?

    /// Creates an event.
    package init(
        watch: WatchDescriptor?,
        mask: Mask,
        cookie: UInt32 = 0,
        name: String = "",
        directory: String? = nil,
        message: String? = nil
    ) {
        self.watch = watch
        self.mask = mask
        self.cookie = cookie
        self.name = name
        self.directory = directory
        self.message = message
    }

    /// The kernel dropped events; everything must be rescanned.
    package static func queueOverflow(_ message: String) -> FileSystemEvent {
        FileSystemEvent(watch: nil, mask: .queueOverflow, message: message)
    }

    /// The source lost track of something; everything must be rescanned.
    package static func needsRescan(_ message: String, watch: WatchDescriptor? = nil) -> FileSystemEvent {
        FileSystemEvent(watch: watch, mask: .needsRescan, message: message)
    }

    /// `wd 3 ja.lproj/Localizable.strings [created]`, for logs and test failures.
    package var description: String {
        let names: [(flag: Mask, label: String)] = [
            (.created, "created"), (.deleted, "deleted"), (.movedFrom, "movedFrom"),
            (.movedTo, "movedTo"), (.closedAfterWrite, "closedAfterWrite"),
            (.attributesChanged, "attributesChanged"), (.modified, "modified"),
            (.deletedSelf, "deletedSelf"), (.movedSelf, "movedSelf"), (.unmounted, "unmounted"),
            (.watchRemoved, "watchRemoved"), (.isDirectory, "isDirectory"),
            (.queueOverflow, "queueOverflow"), (.needsRescan, "needsRescan"),
        ]
        let flags = names.filter { mask.contains($0.flag) }.map(\.label)
        let place = [directory ?? watch?.description ?? "-", name].filter { !$0.isEmpty }.joined(separator: "/")
        let why = message.map { " (\($0))" } ?? ""
        return "\(place) [\(flags.joined(separator: ","))]\(why)"
    }
}
