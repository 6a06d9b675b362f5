// swift-tools-version:6.0
import PackageDescription

// An app's view of VoiceAlarm: this package links the `VoiceAlarm` library product and uses only
// its public API (`make examples` builds and runs it; `make test` compiles its main.swift
// against the root build's libVoiceAlarm.so, without the package's own access).
let package = Package(
    name: "WakeUpToMyVoice",
    // Named, so the product is found whatever the checkout folder is called (a path dependency is
    // otherwise known by its folder name).
    dependencies: [.package(name: "VoiceAlarm", path: "../..")],
    targets: [
        .executableTarget(name: "WakeUpToMyVoice", dependencies: [.product(name: "VoiceAlarm", package: "VoiceAlarm")])
    ]
)
