let corpusRoot = CommandLine.arguments.dropFirst().first ?? defaultCorpusRoot()
_ = runParseBenchmark(corpusRoot: corpusRoot)
runClientBenchmark()
