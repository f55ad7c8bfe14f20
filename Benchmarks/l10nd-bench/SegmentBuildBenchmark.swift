import Foundation
import LocalizationCore

/// Building compiled segments (docs/FORMAT.md, version 3.0) against compiling the
/// whole-generation buffer of version 2.0 (docs/FORMAT-2.md) from the same files, in the
/// same run: the time and bytes of every segment against the whole compile, and the cost of
/// rebuilding one language's segments after an edit against the whole compile a 2.0 daemon
/// does for any edit. On the corpus (when there is one) and on synthetic tables.
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

    // 2.0: parse into the catalog as the daemon does, then compile every language.
    var started = ContinuousClock.now
    var sharing = KeySharing()
    var parsed: [(file: ResourceFile, content: ParsedResource)] = []
    for (file, bytes) in contents {
        if let content = try? sharing.parse(bytes, kind: file.kind, file: file.path, table: file.table) {
            parsed.append((file, content))
        }
    }
    let catalog = ResourceCatalog(developmentLanguage: development, resources: parsed)
    let parseV2 = milliseconds(since: started)
    started = ContinuousClock.now
    guard let whole = try? CompiledTablesWriter(catalog: catalog, generation: 1) else {
        return print("  cannot compile the whole generation")
    }
    let compileV2 = milliseconds(since: started)

    // 3.0: parse into segment sources, then build every (language, table) segment.
    started = ContinuousClock.now
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
            format: "  2.0 whole generation: parse %.0f ms, compile %.0f ms, %.1f MiB (%d languages with pseudo)",
            parseV2, compileV2, Double(whole.byteCount) / 1_048_576, catalog.languages.count + 2))
    print(
        String(
            format:
                "  3.0 segments: parse %.0f ms, build %.0f ms, %.1f MiB in %d segments (%.2f× the compile's time, %.2f× its bytes)",
            parseV3, buildV3, Double(segmentBytes) / 1_048_576, set.allSegments.count, buildV3 / compileV2,
            Double(segmentBytes) / Double(whole.byteCount)))
    print(
        String(
            format:
                "  one language (%@) edited: 3.0 re-parses and rebuilds its segments in %.1f ms, %d of %d shared; 2.0 recompiles all in %.0f ms (%.0f×)",
            edited, rebuildV3, shared, next.allSegments.count, compileV2, compileV2 / max(rebuildV3, 0.001)))
}
