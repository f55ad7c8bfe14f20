import Glibc
import LocalizationCore
package import LocalizationSockets

/// One generation's compiled tables (docs/FORMAT.md) in a sealed memory file: what a `map`
/// reply hands a client, its descriptor attached to the reply's bytes.
///
/// A class so the server can hold it in a reply slot until the bytes carrying it are sent,
/// while the store may already have replaced it: the file lives as long as any holder, and
/// each client keeps its own descriptor or mapping after that.
package final class SharedTablesFile: Sendable {
    /// The generation of the snapshot compiled.
    package let generation: UInt64
    /// The sealed file; its size is the compiled tables' length.
    package let file: SealedMemoryFile

    /// The file's size in bytes, which the `map` reply announces.
    package var size: Int { file.size }

    /// Compiles `snapshot` (every language, pseudo-languages included) into a new sealed file,
    /// named `l10nd-tables-DAEMONPID-GENERATION` in `/proc/PID/maps` (the daemon told apart
    /// from others on the host). `proceeding` is asked between tables and languages whether
    /// the work is still wanted; ``CompiledTablesError/abandoned`` is thrown once it says no.
    package init(compiling snapshot: ResourceSnapshot, proceeding: () -> Bool = { true }) throws {
        let writer = try CompiledTablesWriter(
            catalog: try snapshot.catalog, generation: snapshot.generation, proceeding: proceeding)
        generation = snapshot.generation
        file = try SealedMemoryFile(name: "l10nd-tables-\(getpid())-\(snapshot.generation)", contents: writer.bytes)
    }
}
