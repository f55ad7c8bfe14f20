import Foundation

/// The soak test's referee: checks every answer its clients get against what
/// `scripts/soak-writer` can have written, from any thread.
///
/// A value is `"<lang><version>:<table>:<key>"` (ja12:Menu:k07), or `"en:<table>:<key>"`
/// when the language's directory is gone and the development language answers. An answer is
/// wrong when its value has another form, names another key, table or language, or comes
/// from a broken file; when one reply mixes versions; or when two replies of the same
/// generation disagree on a table's version. After the run, each table's versions must never
/// go backwards as generations go up.
final class SoakChecker: @unchecked Sendable {
    // @unchecked: every mutable property is touched only under `lock`.

    /// The development language's answers count as version 0.
    static let fallback = 0

    private struct Slot: Hashable {
        var language: String
        var table: String
        var generation: UInt64
    }

    private let lock = NSLock()
    private var versions: [Slot: Int] = [:]
    private var wrongAnswers: [String] = []
    private var wrongCount = 0
    private var answerCounts: [String: Int] = [:]

    /// Wrong answers so far (the first 20 are described in ``failures``).
    var wrong: Int { lock.withLock { wrongCount } }

    /// The first wrong answers, described.
    var failures: [String] { lock.withLock { wrongAnswers } }

    /// Answers checked, by kind of request.
    var answers: [String: Int] { lock.withLock { answerCounts } }

    /// The version `value` comes from, or nil (after recording why) when it cannot be a
    /// value the writer wrote for `key` of `table` in `language`. `reportedLanguage` is the
    /// language the daemon said answered, when it said one.
    func version(
        of value: String, key: String, table: String, language: String, reportedLanguage: String?, context: String
    ) -> Int? {
        let parts = value.split(separator: ":", omittingEmptySubsequences: false)
        if parts.count == 3, parts[1] == table, parts[2] == key {
            if parts[0] == "en", reportedLanguage ?? "en" == "en" { return Self.fallback }
            if parts[0].hasPrefix(language), let number = Int(parts[0].dropFirst(language.count)), number > 0,
                reportedLanguage ?? language == language
            {
                return number
            }
        }
        fail("\(context): \(key) in \(language)/\(table) is \(value.debugDescription) from \(reportedLanguage ?? "?")")
        return nil
    }

    /// Records that `generation` served `version` of `language`/`table`; a different
    /// version already seen for the same generation is a wrong answer.
    func record(_ version: Int, language: String, table: String, generation: UInt64, context: String) {
        let slot = Slot(language: language, table: table, generation: generation)
        lock.withLock {
            if let earlier = versions[slot], earlier != version {
                note(
                    "\(context): generation \(generation) served \(language)/\(table) version \(version) and \(earlier)"
                )
            } else {
                versions[slot] = version
            }
        }
    }

    /// Counts `count` correct answers of `kind`.
    func answered(_ kind: String, count: Int = 1) {
        lock.withLock { answerCounts[kind, default: 0] += count }
    }

    /// Records a wrong answer or a failed request.
    func fail(_ description: String) {
        lock.withLock { note(description) }
    }

    /// Tables whose version went backwards while the generation went up: an old table
    /// served after a newer one (the fallback, version 0, may come and go).
    func regressions() -> [String] {
        lock.withLock {
            var latest: [String: (generation: UInt64, version: Int)] = [:]
            var found: [String] = []
            for (slot, version) in versions.sorted(by: { $0.key.generation < $1.key.generation })
            where version != Self.fallback {
                let table = slot.language + "/" + slot.table
                if let previous = latest[table], previous.version > version {
                    found.append(
                        "\(table): version \(previous.version) at generation \(previous.generation), \(version) at \(slot.generation)"
                    )
                }
                latest[table] = (slot.generation, max(version, latest[table]?.version ?? 0))
            }
            return found
        }
    }

    private func note(_ description: String) {
        wrongCount += 1
        if wrongAnswers.count < 20 { wrongAnswers.append(description) }
    }
}
