/// A message the daemon pushes to subscribers without being asked.
///
/// ```swift
/// server.broadcast(.changed(generation: 4, changes: [WireTableChange(language: "ja", table: "Localizable")]))
/// ```
public enum WireEvent: Sendable, Hashable {
    /// Tables changed and the daemon now serves `generation`.
    case changed(generation: UInt64, changes: [WireTableChange])
}
