/// The log line for a generation's changed tables: each named when there are few, else how
/// many in how many languages and the first ``listed``. A reload of a large tree changes
/// thousands of tables at once, and one line naming them all (55 KB for 1,923 tables) is
/// more than a journal line should hold; `subscribe` and the reload's reply still list
/// every one.
///
/// ```swift
/// TableChangeLog.line(generation: 7, changes: changes)
/// // "generation 7: 1,923 tables in 56 languages changed: af/Localizable, …, and 1,913 more"
/// ```
enum TableChangeLog {
    /// How many tables the line names at most.
    static let listed = 10

    /// The line for `changes`, published as `generation`.
    static func line(generation: UInt64, changes: [TableChange]) -> String {
        let names = changes.map { "\($0.language)/\($0.table)" }
        guard names.count > listed else { return "generation \(generation): " + names.joined(separator: ", ") }
        let languages = Set(changes.map(\.language)).count
        return "generation \(generation): \(grouped(names.count)) tables in \(grouped(languages)) "
            + "language\(languages == 1 ? "" : "s") changed: " + names.prefix(listed).joined(separator: ", ")
            + ", and \(grouped(names.count - listed)) more (l10nctl watch lists each)"
    }

    /// `1,923`: digits grouped by thousands, as a person reads a count.
    static func grouped(_ number: Int) -> String {
        let digits = Array(String(number))
        return String(
            digits.enumerated().flatMap { index, digit in
                index > 0 && (digits.count - index) % 3 == 0 ? [",", digit] : [digit]
            })
    }
}
