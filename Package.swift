// swift-tools-version:6.0
import PackageDescription

/// Strict upcoming features for every Swift target, turned on in one place.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "l10nd",
    products: [
        .library(name: "Localization", targets: ["Localization"]),
        .library(name: "LocalizationCore", targets: ["LocalizationCore"]),
        .library(name: "LocalizationInterchange", targets: ["LocalizationInterchange"]),
        .executable(name: "l10nd", targets: ["l10nd"]),
        .executable(name: "l10nctl", targets: ["l10nctl"]),
        .executable(name: "l10nd-bench", targets: ["l10nd-bench"]),
    ],
    targets: [
        .target(name: "LocalizationCore", dependencies: ["CTextTranscoding", "LocalizationSockets"]),
        .target(name: "CTextTranscoding"),
        .target(name: "CommandLineHelp"),
        .target(name: "LocalizationWire", dependencies: ["LocalizationCore"]),
        .target(name: "LocalizationInterchange", dependencies: ["LocalizationCore"]),
        .systemLibrary(name: "CInotifyTools", path: "Sources/CInotifyTools"),
        .systemLibrary(name: "CEpoll", path: "Sources/CEpoll"),
        .systemLibrary(name: "CSharedMemory", path: "Sources/CSharedMemory"),
        .systemLibrary(name: "CMicroHTTPD", path: "Sources/CMicroHTTPD"),
        .target(name: "LocalizationSockets", dependencies: ["CEpoll", "CSharedMemory"]),
        .target(
            name: "LocalizationDaemon",
            dependencies: [
                "LocalizationCore", "LocalizationWire", "LocalizationSockets", "CInotifyTools", "CMicroHTTPD",
                "CommandLineHelp",
            ]
        ),
        .target(name: "Localization", dependencies: ["LocalizationCore", "LocalizationWire", "LocalizationSockets"]),
        .executableTarget(name: "l10nd", dependencies: ["LocalizationDaemon", "LocalizationSockets"]),
        .executableTarget(
            name: "l10nctl",
            dependencies: [
                "Localization", "LocalizationCore", "LocalizationWire", "LocalizationSockets",
                "LocalizationInterchange", "CommandLineHelp",
            ]),
        .executableTarget(
            name: "l10nd-bench",
            dependencies: [
                "LocalizationCore", "Localization", "LocalizationWire", "LocalizationSockets", "LocalizationDaemon",
            ],
            path: "Benchmarks/l10nd-bench"
        ),
        .target(name: "TestSupport", dependencies: ["LocalizationSockets"], path: "Tests/TestSupport"),
        .testTarget(
            name: "LocalizationCoreTests",
            dependencies: ["LocalizationCore", "LocalizationInterchange", "LocalizationSockets", "TestSupport"]),
        .testTarget(
            name: "LocalizationWireTests", dependencies: ["LocalizationWire", "LocalizationCore", "TestSupport"]),
        .testTarget(
            name: "LocalizationDaemonTests",
            dependencies: [
                "LocalizationDaemon", "LocalizationWire", "LocalizationCore", "LocalizationSockets", "TestSupport",
            ]
        ),
        .testTarget(
            name: "LocalizationSocketsTests", dependencies: ["LocalizationSockets", "CSharedMemory", "TestSupport"]),
        .testTarget(
            name: "LocalizationTests",
            dependencies: [
                "Localization", "LocalizationCore", "LocalizationDaemon", "LocalizationSockets", "TestSupport",
            ]),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "LocalizationCore", "Localization", "LocalizationWire", "LocalizationSockets", "CSharedMemory",
                "TestSupport",
            ]),
        .testTarget(name: "CommandLineHelpTests", dependencies: ["CommandLineHelp"]),
    ]
)

for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + strictSettings
}
