// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "VoiceAlarm",
    products: [
        .executable(name: "voicealarm", targets: ["voicealarm"]),
        .library(name: "VoiceAlarmCore", targets: ["VoiceAlarmCore"]),
        .library(name: "VoiceAlarmAudio", targets: ["VoiceAlarmAudio"]),
    ],
    targets: [
        // C system libraries: a module map and one shim.h each, nothing else.
        .systemLibrary(
            name: "CFFmpeg",
            pkgConfig: "libavformat",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev", "libswresample-dev", "libavfilter-dev"])]
        ),

        // Values and rules: no C, no I/O.
        .target(name: "VoiceAlarmCore"),

        // The only importer of FFmpeg: decode, plan with real lengths, render, encode, check.
        .target(name: "VoiceAlarmAudio", dependencies: ["CFFmpeg", "VoiceAlarmCore"]),

        // Argument parsing, help and output; no business logic, no C.
        .target(name: "VoiceAlarmCLI", dependencies: ["VoiceAlarmCore", "VoiceAlarmAudio"]),
        .executableTarget(name: "voicealarm", dependencies: ["VoiceAlarmCLI"]),

        // Helpers for tests: processes, temporary folders, independent measurement tools.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "VoiceAlarmCoreTests", dependencies: ["VoiceAlarmCore"]),
        .testTarget(name: "VoiceAlarmAudioTests", dependencies: ["VoiceAlarmAudio", "VoiceAlarmCore", "TestSupport"]),
        .testTarget(name: "VoiceAlarmCLITests", dependencies: ["VoiceAlarmCLI", "TestSupport"]),
    ]
)
