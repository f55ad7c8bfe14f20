import Glibc

/// Gives the C heap's free pages back to the kernel: glibc's `malloc_trim(0)`.
///
/// glibc keeps freed memory for reuse and returns to the kernel only what ends a heap. A
/// reload runs on whichever thread the reload queue gets, and each thread allocates from
/// its own arena, so what one reload frees is often not reused by the next: untrimmed,
/// every edit of a 10,000-key file left about 1 MiB behind for good (100 edits took a
/// daemon of a million keys from 124 to 226 MiB; trimmed, it stays at 131–134 MiB). After
/// the first load a trim returns 1.8 MiB of parse buffers. It takes well under a millisecond
/// on an idle host, 1–13 ms after a 100k-key parse on a loaded one: it runs after the broadcast.
package enum HeapTrim {
    private typealias MallocTrim = @convention(c) (Int) -> Int32
    private typealias Mallopt = @convention(c) (Int32, Int32) -> Int32

    /// Keeps what `VmData` counts — what `RLIMIT_DATA` limits and the fit check reads —
    /// close to what is in use: call it first in `main`, before any thread allocates.
    ///
    /// Left to itself, glibc gives each thread an arena of up to 64 MiB heaps, whose pages
    /// stay counted once written, even after a trim; and it raises its mmap threshold to
    /// the largest block freed, so the next big buffers land in those heaps too. A 13 MB
    /// catalog saved four times took `VmData` from 78 to 297 MB while RSS stayed under
    /// 101 (RELIABILITY.md). Two arenas and a fixed 128 KiB threshold (big buffers mapped,
    /// and unmapped when freed): 51 to 131, +5 MB at the third save (one arena: 58 to 120,
    /// flat from the second, but the serving thread would wait on every parse's lock;
    /// per-thread caches spare most small allocations either way). An operator's own
    /// `MALLOC_ARENA_MAX`, `MALLOC_MMAP_THRESHOLD_` or `GLIBC_TUNABLES` is left alone.
    package static func boundGrowth() {
        let environment = ["MALLOC_ARENA_MAX", "MALLOC_MMAP_THRESHOLD_", "GLIBC_TUNABLES"]
        guard environment.allSatisfy({ getenv($0) == nil }),
            let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt")
        else { return }
        let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
        _ = mallopt(-8, 2)  // M_ARENA_MAX
        _ = mallopt(-3, 128 << 10)  // M_MMAP_THRESHOLD
    }

    /// Trims the heap after a reload that parsed files or changed tables (parsing and
    /// building freed file bytes, entry lists and replaced segments). The daemon calls it
    /// once the reload's events are sent, not the store before: a mapped client sees the
    /// change only when told of it.
    static func afterReload(_ summary: ChangeSummary) {
        if summary.filesParsed > 0 || !summary.changes.isEmpty { returnFreePages() }
    }

    /// Trims the heap; does nothing where the C library has no `malloc_trim`.
    static func returnFreePages() {
        // Glibc's module map leaves out <malloc.h>, so the function is looked up by name in
        // the loaded libraries (a null handle is RTLD_DEFAULT).
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
        _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
    }
}
