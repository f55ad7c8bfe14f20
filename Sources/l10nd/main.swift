import LocalizationDaemon

print("l10nd \(DaemonVersion.string)")
