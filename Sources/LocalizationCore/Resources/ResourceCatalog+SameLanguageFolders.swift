extension ResourceCatalog {
    /// `pieces` without the files of an `.lproj` folder that a sibling folder (same root,
    /// same parent directory) of the same language outranks for the same table (`en_GB.lproj` beside
    /// `en-GB.lproj`, `English.lproj` beside `en.lproj`): one folder's table is served whole,
    /// as Foundation serves one localization's, never a key-by-key mix of the two.
    ///
    /// Which folder: the one whose name is the language's own identifier (`en-GB`, `en`) —
    /// the spelling Xcode writes and the one Apple's matching prefers (an exact name before
    /// an equivalent one) — else the first by path. Foundation on Linux takes whichever its
    /// directory listing gives first, an order that differs from one file system to the
    /// next; this rule gives the same answer everywhere (docs/LOOKUP.md).
    package static func droppingOutrankedFolders<Piece>(_ pieces: [Piece], file: (Piece) -> ResourceFile) -> [Piece] {
        let outranked = outrankedFolders(pieces, file: file)
        guard !outranked.isEmpty else { return pieces }
        return pieces.indices.filter { outranked[$0] == nil }.map { pieces[$0] }
    }

    /// The pieces ``droppingOutrankedFolders(_:file:)`` leaves out, by index in `pieces`,
    /// each with the folder served in its place (lint's ``LintRule/shadowedFolder``).
    package static func outrankedFolders<Piece>(_ pieces: [Piece], file: (Piece) -> ResourceFile) -> [Int: String] {
        var winners: [FolderSlot: String] = [:]
        var slots: [(slot: FolderSlot, folder: String)?] = []
        slots.reserveCapacity(pieces.count)
        for piece in pieces {
            let resource = file(piece)
            guard resource.kind != .stringCatalog, let language = resource.language,
                let slash = resource.path.lastIndex(of: "/")
            else {
                slots.append(nil)
                continue
            }
            let folder = String(resource.path[..<slash])
            // Siblings only: `de.lproj` of an app and of its extension (mastodon-ios's
            // `Mastodon/` and `WidgetExtension/`) are both served, key by key as before.
            let parent = folder.lastIndex(of: "/").map { String(folder[..<$0]) } ?? ""
            let slot = FolderSlot(
                root: resource.rootIndex, parent: parent, language: language.identifier, table: resource.table)
            slots.append((slot, folder))
            if let current = winners[slot], !outranks(folder, current, language: language.identifier) { continue }
            winners[slot] = folder
        }
        var outranked: [Int: String] = [:]
        for (index, slot) in slots.enumerated() {
            guard let slot, let winner = winners[slot.slot], winner != slot.folder else { continue }
            outranked[index] = winner
        }
        return outranked
    }

    /// One directory's table of one language, which one of its `.lproj` folders serves.
    private struct FolderSlot: Hashable {
        var root: Int
        var parent: String
        var language: String
        var table: String
    }

    /// Whether the `.lproj` folder at `path` is served before the one at `other`, both of
    /// `language`: the one named exactly `language` first, then by path.
    static func outranks(_ path: String, _ other: String, language: String) -> Bool {
        func exact(_ folder: String) -> Bool { folder.split(separator: "/").last == "\(language).lproj"[...] }
        if exact(path) != exact(other) { return exact(path) }
        return path < other
    }
}
