import Foundation
import TestSupport
import Testing
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmFiles

/// File times at and past every edge a stamp meets: 64-bit nanoseconds end in 1677 and 2262,
/// 32-bit seconds in 1901 and 2038, and file systems clamp what they cannot keep.
private let hostileSeconds: [Int] = [
    .min, .min + 1, -9_223_372_037, -9_223_372_036, -2_208_988_800, -1, 0, 1, 2_147_483_647, 2_147_483_648, 4_102_444_800,
    9_223_372_036, 9_223_372_037, 10_413_792_000, 1 << 40, 1 << 62, .max - 1, .max,
]

/// Values a job engine's variables may hold: huge, negative, empty, not numbers, Unicode digits.
private let hostileNumbers = [
    "0", "1", "2", "-1", "", " ", " 3 ", "99999", "100000", "100001", "9223372036854775807", "9223372036854775808",
    "-9223372036854775808", "18446744073709551616", "1e3", "0x10", "+5", "٣", "3\n", "\u{0}", "NaN",
]

/// One thing done to the library's files.
private enum Mutation: CaseIterable { case time, mode, owner, link, dangling }

/// A library in a folder of its own whose files a fuzz loop may abuse, and what puts them back.
private final class AbusedLibrary {
    let dir = TemporaryDirectory("metadata-fuzz")
    var dataDir: String { dir.file("data") }
    var alarms: [String] = []

    init() async throws {
        let service = try open()
        let tone = dir.file("tone.wav")
        try await AudioFixtures.tone(tone, seconds: 0.6)
        let clip = try service.clips.add(tone, title: "tone")
        try service.playlists.create("morning", clips: [clip.idString])
        for hour in [6, 7] {
            let added = try service.alarms.add(on: .playlist("morning"), at: AlarmTime(hour: hour, minute: 0), days: .everyDay)
            alarms.append(added.status.alarm.idString)
        }
    }

    func open() throws -> AlarmService {
        try LibraryOpener.open(LibraryLocation(dataDirectory: dataDir, executable: "/usr/bin/true")).0
    }

    /// Every path a mutation may touch: the folders, the databases, the clips, the voice files.
    func paths() -> [String] {
        var paths = [
            dataDir, "\(dataDir)/clips", "\(dataDir)/Sounds", "\(dataDir)/voicealarm.sqlite",
            "\(dataDir)/embedded-scheduler.sqlite", "\(dataDir)/library-backup.json",
        ]
        for folder in ["clips", "Sounds"] {
            paths += ((try? FileManager.default.contentsOfDirectory(atPath: "\(dataDir)/\(folder)")) ?? [])
                .filter { !$0.hasSuffix(".kept") }.map { "\(dataDir)/\(folder)/\($0)" }
        }
        return paths.sorted()  // the directory's order differs between machines; the loop must not
    }

    /// Puts a path back: its own type of file (a link left by a mutation is undone from the copy
    /// kept beside it), root's, private, stamped now.
    func restore(_ path: String) {
        if FileSystem.kind(of: path + ".kept") != .missing {
            if FileSystem.kind(of: path) == .symbolicLink || FileSystem.kind(of: path) == .missing {
                unlink(path)
                rename(path + ".kept", path)
            } else {
                FileSystem.removeTree(path + ".kept")  // made again meanwhile: the new one stays
            }
        }
        lchown(path, 0, 0)
        if FileSystem.kind(of: path) != .symbolicLink { chmod(path, FileSystem.isDirectory(path) ? 0o700 : 0o600) }
        utimensat(AT_FDCWD, path, nil, AT_SYMLINK_NOFOLLOW)
    }
}

@Suite("Fuzz: hostile file metadata and job-engine variables trap nothing")
struct FileMetadataFuzzTests {
    @Test(
        "Times, modes, owners and links on every file of a library: each operation works or throws a one-line error, and the alarms ring their voice afterwards",
        .timeLimit(.minutes(3)), arguments: [11, 12] as [UInt64])
    func fileMetadata(seed: UInt64) async throws {
        let library = try await AbusedLibrary()
        var random = SeededGenerator(seed: seed)
        var failures = 0, successes = 0
        for _ in 0..<60 {
            let paths = library.paths()
            var touched: [String] = []
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let path = paths.randomElement(using: &random)!
                touched.append(path)
                switch Mutation.allCases.randomElement(using: &random)! {
                case .time:
                    let seconds = hostileSeconds.randomElement(using: &random)!
                    let time = timespec(tv_sec: seconds, tv_nsec: Int.random(in: 0..<1_000_000_000, using: &random))
                    _ = withUnsafePointer(to: (time, time)) { pair in
                        pair.withMemoryRebound(to: timespec.self, capacity: 2) { utimensat(AT_FDCWD, path, $0, AT_SYMLINK_NOFOLLOW) }
                    }
                case .mode: chmod(path, mode_t(Int.random(in: 0...0o7777, using: &random)))
                case .owner: lchown(path, [65534, 1, 4242].randomElement(using: &random)!, 65534)
                case .link, .dangling:
                    // (Not the data dir itself: a data dir reached through a link is the person's choice.)
                    guard path != library.dataDir, FileSystem.kind(of: path + ".kept") == .missing,
                        FileSystem.kind(of: path) != .symbolicLink
                    else { continue }
                    rename(path, path + ".kept")
                    let target = Bool.random(using: &random) ? library.dir.file("nowhere") : paths.randomElement(using: &random)!
                    symlink(target, path)
                }
            }
            // What a person, a ring or the daemon would do next: each works, or says why in one line.
            let operations: [() throws -> Void] = [
                { _ = try library.open().alarms.statuses() },
                { _ = try Doctor(service: library.open(), openDevice: { _ in }).examine(device: "default") },
                { _ = try library.open().sync.drift() },
                { _ = try library.open().sync.reconcile() },
                { for path in paths { _ = try? FileStamp(path: path) } },
            ]
            for operation in operations {
                do {
                    try operation()
                    successes += 1
                } catch {
                    failures += 1
                    let text = SystemError.text(of: error)
                    #expect(!text.isEmpty && !text.contains("\n"), "\(text)")
                }
            }
            for path in touched.reversed() { library.restore(path) }
        }
        for path in library.paths() { library.restore(path) }
        let service = try library.open()
        _ = try service.sync.reconcile()
        let statuses = try service.alarms.statuses()
        #expect(statuses.count == 2 && statuses.allSatisfy { $0.sound.reason == nil }, "both alarms ring their voice: \(statuses.map(\.sound))")
        #expect(try service.sync.drift().isEmpty)
        #expect(successes > 0 && failures > 0, "\(successes) operations worked, \(failures) refused")
    }

    @Test(
        "5,000 job-engine environments through ShardSpec.resolve: a valid shard or a ShardError, never a trap",
        .timeLimit(.minutes(3)))
    func engineVariables() {
        var random = SeededGenerator(seed: 23)
        let names = [
            "JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_STEP",
            "SLURM_ARRAY_TASK_COUNT", "AWS_BATCH_JOB_ARRAY_INDEX",
        ]
        var resolved = 0, refused = 0
        for _ in 0..<5_000 {
            var environment: [String: String] = [:]
            for name in names where Int.random(in: 0..<3, using: &random) == 0 { environment[name] = hostileNumbers.randomElement(using: &random)! }
            let option =
                Int.random(in: 0..<4, using: &random) == 0
                ? "\(hostileNumbers.randomElement(using: &random)!)/\(hostileNumbers.randomElement(using: &random)!)" : nil
            let count = Int.random(in: 0..<3, using: &random) == 0 ? hostileNumbers.randomElement(using: &random)! : nil
            do {
                let shard = try ShardSpec.resolve(option: option, count: count, environment: environment)
                #expect((1...ShardSpec.largestCount).contains(shard.count) && (1...shard.count).contains(shard.index))
                resolved += 1
            } catch {
                #expect(!error.reason.isEmpty && !error.reason.contains("\n"))
                refused += 1
            }
        }
        #expect(resolved > 0 && refused > 0, "\(resolved) resolved, \(refused) refused")
    }
}
