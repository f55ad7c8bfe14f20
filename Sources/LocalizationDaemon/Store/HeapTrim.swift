import Glibc

/// Gives the C heap's free pages back to the kernel: glibc's `malloc_trim(0)`.
///
/// glibc keeps freed memory for reuse and returns to the kernel only what ends a heap. A
/// reload runs on whichever thread the reload queue gets, and each thread allocates from
/// its own arena, so what one reload frees is often not reused by the next: untrimmed,
/// every edit of a 10,000-key file left about 1 MiB behind for good (100 edits took a
/// daemon of a million keys from 124 to 226 MiB; trimmed, it stays at 131–134 MiB). After
/// the first load a trim returns 1.8 MiB of parse buffers. It takes well under a millisecond.
enum HeapTrim {
    private typealias MallocTrim = @convention(c) (Int) -> Int32

    /// Trims the heap; does nothing where the C library has no `malloc_trim`.
    static func returnFreePages() {
        // Glibc's module map leaves out <malloc.h>, so the function is looked up by name in
        // the loaded libraries (a null handle is RTLD_DEFAULT).
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
        _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
    }
}
