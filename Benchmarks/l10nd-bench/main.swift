// l10nd-bench: every figure next to a baseline measured in the same run.
let corpusRoot = CommandLine.arguments.dropFirst().first { !$0.hasPrefix("--") } ?? defaultCorpusRoot()
if !CommandLine.arguments.contains("--skip-parse") { _ = runParseBenchmark(corpusRoot: corpusRoot) }
runReloadLatencyBenchmark()
