// l10nd-bench: every figure next to a baseline measured in the same run.
//
//   swift run -c release l10nd-bench [CORPUS_DIR] [--languages N] [--keys M] [--skip-parse]
let arguments = CommandLine.arguments.dropFirst()
func option(_ name: String, default value: Int) -> Int {
    guard let index = arguments.firstIndex(of: name), arguments.index(after: index) < arguments.endIndex else {
        return value
    }
    return Int(arguments[arguments.index(after: index)]) ?? value
}
let optionValues = Set(
    ["--languages", "--keys"].compactMap { arguments.firstIndex(of: $0) }.map { arguments.index(after: $0) })
let corpusRoot =
    arguments.indices.first { !arguments[$0].hasPrefix("--") && !optionValues.contains($0) }
    .map { arguments[$0] } ?? defaultCorpusRoot()
if !arguments.contains("--skip-parse") { _ = runParseBenchmark(corpusRoot: corpusRoot) }
runClientBenchmark()
runPipelineBenchmark()
runReloadLatencyBenchmark()
runDaemonStartBenchmark(languages: option("--languages", default: 100), keys: option("--keys", default: 10_000))
