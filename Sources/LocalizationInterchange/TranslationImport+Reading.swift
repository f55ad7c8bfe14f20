public import LocalizationCore

extension TranslationImport {
    /// The translations an interchange file gives, each placed at a unit of the project, and
    /// the ones it could not place, each naming the unit in words for the translator.
    public struct Reading: Sendable {
        /// The translations to write.
        public var targets: [Target] = []
        /// Translations that cannot be placed: an import with any fails (exit 1), so no edit
        /// is lost with a clean exit.
        public var unplaced: [String] = []
        /// Units the file gives no translation for (an XLIFF `<target>` deleted or emptied)
        /// that have one in the files: nothing is written, the value is kept, and it is said.
        public var keptWithoutTarget: [String] = []
    }

    /// The translations of XLIFF `<trans-unit>`s with a non-empty `<target>`: by file and id,
    /// else (a file of another tool, translate-toolkit's `po2xliff` numbering its units) by
    /// source text when exactly one unit has it.
    public static func read(_ entries: [XLIFFDocument.Entry], into project: TranslationProject) -> Reading {
        var reading = Reading()
        // A unit with two `<target>`s has no one translation: neither is written, and the
        // import fails naming it (an XML reader would silently keep the last).
        for entry in entries where entry.targetCount > 1 {
            reading.unplaced.append(
                "\(entry.original): unit \"\(entry.id)\" has \(entry.targetCount) <target> elements; "
                    + "none of them is written (keep one)")
        }
        // l10nd's values are plain text: a target whose inline code carries no text cannot be
        // placed faithfully (`Ein<x id="2"/>` would lose the code silently).
        for entry in entries where entry.targetCount <= 1 && !entry.textlessCodes.isEmpty {
            reading.unplaced.append(
                "\(entry.original): unit \"\(entry.id)\" has \(entry.textlessCodes.joined(separator: ", ")) in its "
                    + "<target>, inline code with no text (no content or equiv-text) that a plain-text value cannot "
                    + "hold; it is not written (write the text it stands for, or give it an equiv-text)")
        }
        let entries = entries.filter { $0.targetCount <= 1 && $0.textlessCodes.isEmpty }
        // An empty or deleted `<target>` is no translation: an import never removes one, but
        // a translator who emptied it meant something, so the kept value is named.
        for entry in entries where entry.target.isEmpty {
            guard let unit = project.file(original: entry.original)?.units.first(where: { $0.id == entry.id }),
                let value = unit.target, !value.isEmpty
            else { continue }
            reading.keptWithoutTarget.append(
                "\(entry.original): unit \"\(entry.id)\" has \(entry.hasTarget ? "an empty <target>" : "no <target>"); "
                    + "its translation in the files, \(PODocument.quoted(value)), is kept")
        }
        for entry in entries where !entry.target.isEmpty {
            if project.has(original: entry.original, id: entry.id, plural: false) {
                var target = Target(original: entry.original, id: entry.id, text: entry.target, state: entry.state)
                target.base = entry.base
                target.source = entry.source
                reading.targets.append(target)
                continue
            }
            let name = "\(entry.original): unit \"\(entry.id)\""
            guard let source = entry.source else {
                reading.unplaced.append("\(name): no such unit and no <source> to find it by; it is not written")
                continue
            }
            switch project.place(name, source: source, plural: nil, hints: [entry.id] + entry.hints) {
            case .success(let place):
                var target = Target(original: place.original, id: place.id, text: entry.target, state: entry.state)
                target.base = entry.base
                reading.targets.append(target)
            case .failure(let error): reading.unplaced.append(error.description)
            }
        }
        return reading
    }

    /// The translations of `.po` messages: by `msgctxt` `ORIGINAL|ID`, else by source text
    /// when exactly one unit has it. Plural `msgstr[k]`s go to the CLDR categories the
    /// header's `Plural-Forms` gives slot *k* (``GettextPluralSlots``); without one, to the
    /// target language's *k*-th category, as export numbers them. Empty `msgstr`s are
    /// untranslated and left out.
    public static func read(_ contents: PODocument.Contents, into project: TranslationProject) -> Reading {
        var reading = Reading()
        let slots: GettextPluralSlots
        do {
            slots =
                try contents.pluralForms.map { (header) throws(InterchangeError) in
                    try GettextPluralSlots(header: header, language: project.language)
                } ?? GettextPluralSlots(language: project.language)
        } catch {
            let plural = contents.entries.filter { $0.isPlural && $0.translations.contains { !$0.isEmpty } }
            reading.unplaced += plural.map { "\($0.name): \(error); it is not written" }
            slots = GettextPluralSlots(language: project.language)
        }
        for entry in contents.entries where entry.translations.contains(where: { !$0.isEmpty }) {
            let place: TranslationProject.Place
            // Only a message export wrote (`msgctxt` `ORIGINAL|ID`) has the source text as
            // `msgid`: the missing-key skeleton's is the key.
            var exported = false
            if let context = entry.context, let bar = context.firstIndex(of: "|"),
                case let (original, id) = (String(context[..<bar]), String(context[context.index(after: bar)...])),
                project.has(original: original, id: id, plural: entry.isPlural)
            {
                place = TranslationProject.Place(original: original, id: id)
                exported = true
            } else if !entry.isPlural, let named = project.place(namedBy: entry.references + [entry.context ?? ""]) {
                // Its `msgid` is the unit's source text (the XLIFF `<source>`), checked as export's.
                // (`xliff2po` gives messages of one source text their location as `msgctxt`.)
                place = named
                exported = true
            } else {
                let hints = (entry.context.map { [$0] } ?? []) + entry.references
                switch project.place(entry.name, source: entry.source, plural: entry.sourcePlural, hints: hints) {
                case .success(let found): place = found
                case .failure(let error):
                    reading.unplaced.append(error.description)
                    continue
                }
            }
            let state: TranslationState = entry.isFuzzy ? .needsReview : .translated
            guard entry.isPlural else {
                var target = Target(original: place.original, id: place.id, text: entry.translations[0], state: state)
                target.base = entry.base
                target.source = exported ? entry.source : nil
                reading.targets.append(target)
                continue
            }
            let units = project.file(original: place.original)?.units.filter { $0.pluralGroup == place.id } ?? []
            for (slot, text) in entry.translations.enumerated() where !text.isEmpty {
                let categories = slots.categories(of: slot)
                if categories.isEmpty {
                    reading.unplaced.append(
                        "\(entry.name): msgstr[\(slot)] is for no plural category of \(project.language.identifier) "
                            + "under its Plural-Forms; it is not written")
                }
                for category in categories {
                    guard let unit = units.first(where: { $0.category == category }) else { continue }
                    var target = Target(original: place.original, id: unit.id, text: text, state: state)
                    target.base = entry.base
                    target.baseGroup = place.id
                    if exported { target.pluralSources = [entry.source, entry.sourcePlural ?? entry.source] }
                    reading.targets.append(target)
                }
            }
            if !slots.split.isEmpty {
                reading.unplaced.append(
                    "\(entry.name): the Plural-Forms formula gives the numbers of "
                        + slots.split.map(\.rawValue).joined(separator: ", ")
                        + " different msgstr slots, so no one translation fits them; they are not written")
            }
        }
        return reading
    }
}
