import Foundation
import LocalizationCore

extension TranslationProject {
    /// A unit (or a plural group, by the id its forms share) of one file.
    struct Place: Hashable {
        var original: String
        var id: String
        var name: String { "\(original)|\(id)" }
    }

    /// Where a translation goes whose file and id are missing or name nothing here
    /// (translate-toolkit's `xliff2po` and `po2xliff` drop them; `l10nctl missing --format po`
    /// writes no `msgctxt`): the units whose source text is `source` (for a plural group, the
    /// `msgid` and `msgid_plural` export writes, ``PODocument/pluralSourcesMatch(_:_:)``),
    /// else the units whose key it is.
    /// `hints` (a bare `msgctxt`, `#:` references, an XLIFF id) that name a file, its table,
    /// a unit or both narrow them when they match any.
    func places(source: String, plural: String?, hints: [String]) -> [Place] {
        var found: [Place] = []
        for file in files {
            if let plural {
                var seen: Set<String> = []
                for unit in file.units {
                    guard let group = unit.pluralGroup, seen.insert(group).inserted else { continue }
                    if PODocument.pluralSourcesMatch([source, plural], file.units.filter { $0.pluralGroup == group }) {
                        found.append(Place(original: file.original, id: group))
                    }
                }
            } else {
                for unit in file.units where unit.pluralGroup == nil && unit.source == source {
                    found.append(Place(original: file.original, id: unit.id))
                }
            }
        }
        // `l10nctl missing --format po` writes the key as `msgid` and the table as `msgctxt`:
        // with no unit of that source text, the units of that key.
        if found.isEmpty, plural == nil {
            for file in files where file.units.contains(where: { $0.pluralGroup == nil && $0.id == source }) {
                found.append(Place(original: file.original, id: source))
            }
        }
        let narrowed = found.filter { place in
            hints.contains { hint in
                hint == place.id || hint == place.original || hint == place.name
                    || hint == ((place.original as NSString).lastPathComponent as NSString).deletingPathExtension
            }
        }
        if !narrowed.isEmpty { return narrowed }
        // translate-toolkit's `xliff2po` writes a unit's id as a `#:` reference unless the id
        // is the source text itself: a message without one is that unit's.
        let named = found.filter { $0.id == source }
        return named.isEmpty ? found : named
    }

    /// The one unit (a plural form's too) whose id one of `references` is, if exactly one is:
    /// translate-toolkit's `xliff2po` writes each XLIFF unit, each plural form as well, as a
    /// message of its own without `msgctxt` and with the unit's id as its `#:` reference,
    /// percent-encoded where the id has `|` or `%`, with a space as `+` (translate-toolkit's
    /// `quote_plus`; a `+` of the id itself is written `%2B`).
    func place(namedBy references: [String]) -> Place? {
        let decoded = references.compactMap { $0.replacing("+", with: " ").removingPercentEncoding }
        let ids = Set(references + references.compactMap { $0.removingPercentEncoding } + decoded).subtracting([""])
        guard !ids.isEmpty else { return nil }
        var found: [Place] = []
        for file in files {
            for unit in file.units where ids.contains(unit.id) {
                found.append(Place(original: file.original, id: unit.id))
                if found.count > 1 { return nil }
            }
        }
        return found.first
    }

    /// Whether `original` has a unit (or, for `plural`, a plural group) `id`.
    func has(original: String, id: String, plural: Bool) -> Bool {
        file(original: original)?.units.contains { plural ? $0.pluralGroup == id : $0.id == id } ?? false
    }

    /// The one place `source` can go, or why there is none, naming the message.
    func place(_ name: String, source: String, plural: String?, hints: [String]) -> Result<Place, InterchangeError> {
        let places = places(source: source, plural: plural, hints: hints)
        switch places.count {
        case 1: return .success(places[0])
        case 0:
            return .failure(InterchangeError("\(name): no unit has this source text; it is not written"))
        default:
            let listed = places.prefix(5).map(\.name).joined(separator: ", ")
            return .failure(
                InterchangeError(
                    "\(name): \(places.count) units have this source text (\(listed)\(places.count > 5 ? ", …" : "")); "
                        + "give it a msgctxt ORIGINAL|ID (as l10nctl export writes) to say which; it is not written"))
        }
    }
}
