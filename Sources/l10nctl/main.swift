print("l10nctl")
