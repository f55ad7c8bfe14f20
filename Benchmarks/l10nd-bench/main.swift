print("l10nd-bench")
