// swift-tools-version:6.0
import PackageDescription

/// The modules with the sample loops (decoding, mixing, level profiles, planning) are optimised in
/// debug builds too: unoptimised generic Swift spends most of a render in the runtime's generic
/// metadata and range checks (a 29 s render: 53 % of its time in libswiftCore), and every test that
/// renders pays for it. Debug builds keep their checks (`-O` keeps preconditions and overflow traps).
let optimisedInDebug: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]

let package = Package(
    name: "VoiceAlarm",
    products: [
        .executable(name: "voicealarm", targets: ["voicealarm"]),
        // What an app links: the service's small public API (`VoiceAlarmLibrary`) and the core's
        // value types its signatures use. Everything else is `package`: the command line and the
        // tests see it, an app does not. Dynamic, so the example package's test links the root
        // build's libVoiceAlarm.so instead of building everything a second time.
        .library(name: "VoiceAlarm", type: .dynamic, targets: ["VoiceAlarm", "VoiceAlarmCore"]),
    ],
    targets: [
        // C system libraries: a module map and one shim.h each, nothing else.
        .systemLibrary(
            name: "CFFmpeg",
            // Not linked: opened on first use (dlopen; see shim.h). The headers are on the default path.
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev", "libswresample-dev", "libavfilter-dev"])]
        ),

        // Integrated loudness (EBU R128): cheaper than libavfilter's `ebur128` for the same reading.
        .systemLibrary(name: "CEBUR128", pkgConfig: "libebur128", providers: [.apt(["libebur128-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CALSA", pkgConfig: "alsa", providers: [.apt(["libasound2-dev"])]),
        .systemLibrary(name: "CSndFile", pkgConfig: "sndfile", providers: [.apt(["libsndfile1-dev"])]),
        // Macros only: how CFFmpeg, CEspeakNG and CMosquitto open their libraries on first use
        // (dlopen), so a command that does not use them starts without them.
        .systemLibrary(name: "CLazyLoad"),
        // Text to speech for spoken stand-ins (`clip say`).
        // Opened on first use, not linked (see CLazyLoad); the headers are on the default path.
        .systemLibrary(name: "CEspeakNG", providers: [.apt(["libespeak-ng-dev"])]),
        // SHA-256 of recordings and of ringtones' inputs (Nettle: light to load, unlike FFmpeg).
        .systemLibrary(name: "CNettle", pkgConfig: "nettle", providers: [.apt(["nettle-dev"])]),
        // Linux timer file descriptors (the daemon's sleep: wake from suspend, notice clock changes).
        .systemLibrary(name: "CLinux"),
        // The web server's HTTP and HTTPS (`voicealarm serve`).
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        // Certificates, keys, digests and random bytes for `serve`'s HTTPS and pairing.
        .systemLibrary(name: "CGnuTLS", pkgConfig: "gnutls", providers: [.apt(["libgnutls28-dev"])]),
        // QR codes of `serve`'s pairing address, for a phone's camera.
        .systemLibrary(name: "CQREncode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        // iCalendar files and their recurrences, for the holidays alarms skip.
        .systemLibrary(name: "CICal", pkgConfig: "libical", providers: [.apt(["libical-dev"])]),
        // MQTT, for the Home Assistant bridge (`voicealarm mqtt`).
        .systemLibrary(name: "CMosquitto", providers: [.apt(["libmosquitto-dev"])]),
        // Tar files, for moving a library to another machine (`export`, `import`).
        .systemLibrary(name: "CArchive", pkgConfig: "libarchive", providers: [.apt(["libarchive-dev"])]),

        // Values and rules: no C, no I/O.
        .target(name: "VoiceAlarmCore", swiftSettings: optimisedInDebug),

        // The file-system seam: atomic writes, folders with a mode, errno captured at the failing call.
        .target(name: "VoiceAlarmFiles", dependencies: ["CLinux", "VoiceAlarmCore"]),

        // The only importer of FFmpeg, libebur128 and Nettle: decode, plan with real lengths, render, encode, check.
        .target(
            name: "VoiceAlarmAudio",
            dependencies: ["CFFmpeg", "CEBUR128", "CALSA", "CSndFile", "CEspeakNG", "CNettle", "CLazyLoad", "VoiceAlarmCore", "VoiceAlarmFiles"],
            swiftSettings: optimisedInDebug),

        // The only importer of SQLite: the library's schema, clips, targets, alarms, settings; the sounds folder.
        .target(name: "VoiceAlarmStore", dependencies: ["CSQLite", "VoiceAlarmCore", "VoiceAlarmFiles"]),

        // The only importer of libical: the holidays in an iCalendar file, recurrences expanded.
        .target(name: "VoiceAlarmCalendar", dependencies: ["CICal", "VoiceAlarmCore", "VoiceAlarmFiles"]),

        // The only importer of libarchive: tar files written and read entry by entry, nothing followed or made.
        .target(name: "VoiceAlarmArchive", dependencies: ["CArchive", "VoiceAlarmCore", "VoiceAlarmFiles"]),

        // The AlarmScheduler backends.
        .target(name: "VoiceAlarmScheduling", dependencies: ["CLinux", "VoiceAlarmCore", "VoiceAlarmStore", "VoiceAlarmFiles"]),

        // The service that wires audio, store and scheduler: add, remove, switch, rebuild.
        .target(
            name: "VoiceAlarm",
            dependencies: [
                "VoiceAlarmCore", "VoiceAlarmFiles", "VoiceAlarmAudio", "VoiceAlarmStore", "VoiceAlarmScheduling", "VoiceAlarmCalendar",
                "VoiceAlarmArchive",
            ]),

        // `serve`'s web adapter, the only importer of libmicrohttpd, GnuTLS and libqrencode: an HTTP(S)
        // server with limits (requests and responses as values), the TLS identity, pairing secrets, QR codes.
        .target(name: "VoiceAlarmHTTP", dependencies: ["CMicroHTTPD", "CGnuTLS", "CQREncode", "VoiceAlarmFiles"]),

        // The only importer of libmosquitto: one MQTT connection, pumped by its owner's thread.
        .target(name: "VoiceAlarmMQTT", dependencies: ["CMosquitto", "CLazyLoad", "VoiceAlarmCore"]),

        // How the command line and the web API say things: the `--json` documents, the error
        // object, and the sentences for the service's typed warnings and problems.
        .target(name: "VoiceAlarmDocuments", dependencies: ["VoiceAlarmCore", "VoiceAlarmFiles", "VoiceAlarmStore", "VoiceAlarmScheduling", "VoiceAlarm"]),

        // `voicealarm serve`: the web page and its JSON API over the service (routes, pairing, the
        // page itself); handlers parse, call the service and answer with the shared documents.
        // The page's files (`Page/`: HTML, JavaScript, CSS, the icon) are compiled into the binary
        // (`PackageResources`), so `voicealarm` stays one file with nothing to install beside it.
        .target(
            name: "VoiceAlarmWeb",
            dependencies: ["VoiceAlarmCore", "VoiceAlarmFiles", "VoiceAlarm", "VoiceAlarmAudio", "VoiceAlarmDocuments", "VoiceAlarmHTTP"],
            resources: [.embedInCode("Page")]),

        // `voicealarm mqtt`: Home Assistant follows the alarms over MQTT (discovery, state, events,
        // commands) through the service; nothing of it is on the ring path.
        .target(
            name: "VoiceAlarmHome",
            dependencies: ["VoiceAlarmCore", "VoiceAlarmFiles", "VoiceAlarm", "VoiceAlarmDocuments", "VoiceAlarmMQTT", "VoiceAlarmScheduling"]),

        // Argument parsing, help and output; no business logic, no C.
        .target(
            name: "VoiceAlarmCLI",
            dependencies: [
                "VoiceAlarmCore", "VoiceAlarmFiles", "VoiceAlarmAudio", "VoiceAlarm", "VoiceAlarmDocuments", "VoiceAlarmHTTP", "VoiceAlarmWeb",
                "VoiceAlarmHome",
            ]),
        .executableTarget(name: "voicealarm", dependencies: ["VoiceAlarmCLI"]),
        // `make docs`: man pages and completions from the command tables (not part of the product).
        .executableTarget(name: "voicealarm-docs", dependencies: ["VoiceAlarmCLI"]),
        // `make bench`'s in-process encoder-only bound (not part of the product).
        .executableTarget(name: "voicealarm-bench", dependencies: ["VoiceAlarmAudio", "VoiceAlarmCore"]),

        // Helpers for tests: processes, temporary folders, independent measurement tools.
        .target(name: "TestSupport", dependencies: ["VoiceAlarmWeb"], path: "Tests/TestSupport"),
        .testTarget(name: "VoiceAlarmCoreTests", dependencies: ["VoiceAlarmCore"]),
        .testTarget(name: "VoiceAlarmAudioTests", dependencies: ["VoiceAlarmAudio", "VoiceAlarmCore", "TestSupport"]),
        .testTarget(name: "VoiceAlarmCLITests", dependencies: ["VoiceAlarmCLI", "TestSupport"]),
        .testTarget(name: "VoiceAlarmSchedulingTests", dependencies: ["VoiceAlarmScheduling", "VoiceAlarmCore", "VoiceAlarmFiles", "TestSupport"]),
        .testTarget(
            name: "VoiceAlarmLibraryTests",
            dependencies: [
                "VoiceAlarm", "VoiceAlarmStore", "VoiceAlarmScheduling", "VoiceAlarmAudio", "VoiceAlarmCore", "VoiceAlarmHome", "VoiceAlarmMQTT",
                "TestSupport",
            ]),
        .testTarget(name: "VoiceAlarmHTTPTests", dependencies: ["VoiceAlarmHTTP", "TestSupport"]),
        // The web application in process (routes, pairing, origins, refusals) over a real library.
        .testTarget(name: "VoiceAlarmWebTests", dependencies: ["VoiceAlarmWeb", "VoiceAlarmHTTP", "VoiceAlarm", "VoiceAlarmCore", "TestSupport"]),
        // Deterministic fuzz loops over the parsers, the audio header checks, file metadata and job-engine variables (well under a minute).
        .testTarget(name: "VoiceAlarmFuzzTests", dependencies: ["VoiceAlarm", "VoiceAlarmAudio", "VoiceAlarmCore", "VoiceAlarmFiles", "TestSupport"]),
    ]
)
