import Foundation
import LocalizationCore

/// Building compiled segments (docs/FORMAT.md, version 3.0): the time and bytes of every
/// segment, and the cost of rebuilding one language's segments after an edit (the
/// whole-generation compile of format 2.0 it replaced is in docs/FORMAT.md's measurements).
/// On the corpus (when there is one) and on synthetic tables.
func runSegmentBuildBenchmark(corpusRoot: String?, languages: Int, keys: Int) {
    if let corpusRoot { measureSegmentBuild(roots: [corpusRoot], label: "segments: corpus \(corpusRoot)") }
    let directory = NSTemporaryDirectory() + "l10nd-bench-segments-\(getpid())"
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let synthetic = SyntheticResources(languages: languages, keys: keys, under: directory)
    measureSegmentBuild(roots: [synthetic.root], label: "segments: \(languages) languages × \(keys) keys (synthetic)")
}

private func measureSegmentBuild(roots: [String], label: String) {
    print(label)
    let development = LanguageTag(language: "en")
    let files = ResourceScanner.scan(roots: roots)
    let contents = files.compactMap { file in (try? ResourceFileReader.bytes(of: file.path).get()).map { (file, $0) } }

    var started = ContinuousClock.now
    // Parse into segment sources, then build every (language, table) segment.
    var sources: [(file: ResourceFile, content: SegmentSource)] = []
    for (file, bytes) in contents {
        if let (content, _) = try? SegmentSource.read(bytes, kind: file.kind, file: file.path) {
            sources.append((file, content))
        }
    }
    let parseV3 = milliseconds(since: started)
    started = ContinuousClock.now
    let set: SegmentSet
    do { set = try SegmentSet(developmentLanguage: development, sources: sources) } catch {
        return print("  cannot build the segments: \(error)")
    }
    let buildV3 = milliseconds(since: started)
    let segmentBytes = set.allSegments.reduce(0) { $0 + $1.bytes.count }

    // One language edited: its files parsed again and its segments rebuilt, the rest shared.
    let languages = set.languages.map(\.identifier)
    let edited = ["de", "ja", "fr"].first(where: languages.contains) ?? languages.last ?? "en"
    started = ContinuousClock.now
    var editedSources: [(file: ResourceFile, content: SegmentSource)] = []
    for (file, bytes) in contents where file.language?.identifier == edited {
        if let (content, _) = try? SegmentSource.read(bytes, kind: file.kind, file: file.path) {
            editedSources.append((file, content))
        }
    }
    var next = set
    for (key, pieces) in SegmentSet.pieces(of: editedSources) where key.language == edited {
        guard let plan = try? SegmentPlan(language: key.language, table: key.table, pieces: pieces),
            let segment = try? Segment(plan)
        else { return print("  cannot rebuild \(key.language)/\(key.table)") }
        next = next.replacing(segment, language: key.language, table: key.table)
    }
    let rebuildV3 = milliseconds(since: started)
    let shared = next.allSegments.filter { segment in set.allSegments.contains { $0 === segment } }.count

    print(
        String(
            format: "  segments: parse %.0f ms, build %.0f ms, %.1f MiB in %d segments",
            parseV3, buildV3, Double(segmentBytes) / 1_048_576, set.allSegments.count))
    print(
        String(
            format: "  one language (%@) edited: re-parsed and rebuilt in %.1f ms, %d of %d segments shared",
            edited, rebuildV3, shared, next.allSegments.count))
}
