import Glibc

/// A file as `stat` shows it: device, inode, size, modification and change times. Equal
/// stamps mean the same bytes only when the change time was already in the past when the
/// stamp was taken (a write in the same clock tick keeps it): ``init(settled:)``.
struct FileStamp: Equatable, Sendable {
    let device: UInt
    let inode: UInt
    let size: Int
    let modified: [Int]
    let changed: [Int]

    /// The stamp of `info`, taken now; `nil` when the file changed within the last 20 ms (two
    /// ticks of the coarsest kernel clock that stamps files), too recently for its times to
    /// tell a later write in the same tick.
    init?(settled info: stat) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let age = (now.tv_sec - info.st_ctim.tv_sec) * 1_000_000_000 + (now.tv_nsec - info.st_ctim.tv_nsec)
        guard age >= 20_000_000 else { return nil }
        device = UInt(info.st_dev)
        inode = UInt(info.st_ino)
        size = Int(info.st_size)
        modified = [info.st_mtim.tv_sec, info.st_mtim.tv_nsec]
        changed = [info.st_ctim.tv_sec, info.st_ctim.tv_nsec]
    }
}
