import Foundation
import TestSupport
import Testing

/// A manifest of six short ringtones over SampleAudio, for running a deploy recipe's command here.
private func sampleManifest(_ dir: TemporaryDirectory, at path: String) throws {
    let clips = ["calm.wav", "ready.mp3", "kind.ogg", "strong.flac"].map { "\(ProjectPaths.sampleAudio)/\($0)" }
    let ringtones = (0..<6).map { #"{"id": "p\#($0)", "clips": ["\#(clips[$0 % 4])", "\#(clips[($0 + 1) % 4])"], "format": "caf"}"# }
    try #"{"ringtones": [\#(ringtones.joined(separator: ", "))]}"#.write(toFile: path, atomically: true, encoding: .utf8)
}

/// The value of a Makefile variable, as make expands it.
private func makeVariable(_ name: String) async throws -> Set<String> {
    let result = try await ProcessRunner.run(
        "make",
        [
            "-s", "--no-print-directory", "-C", ProjectPaths.root,
            "--eval", "print-%: ; @echo $($*)", "print-\(name)",
        ])
    #expect(result.status == 0, "\(result.stderr)")
    return Set(result.stdout.split(whereSeparator: \.isWhitespace).map(String.init))
}

/// The packages each stage of a container recipe installs with apt-get, in order of the stages.
private func aptPackages(_ recipe: String) -> [Set<String>] {
    let joined = recipe.replacingOccurrences(of: "\\\n", with: " ")
    var stages: [Set<String>] = []
    for line in joined.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) where !line.hasPrefix("#") {
        if line.hasPrefix("FROM ") { stages.append([]) }
        guard let install = line.range(of: "apt-get install") else { continue }
        let words = line[install.upperBound...].prefix { $0 != "&" }.split(separator: " ").map(String.init)
        stages[stages.count - 1].formUnion(words.filter { !$0.hasPrefix("-") })
    }
    return stages
}

@Suite("Deploy recipes: a Kubernetes Indexed Job, a Slurm array, a container", .serialized)
struct DeployRecipeTests {
    let deploy = "\(ProjectPaths.root)/deploy"

    @Test("The Indexed Job parses, has what an Indexed Job needs, and its command builds a manifest here", .timeLimit(.minutes(1)))
    func kubernetes() async throws {
        let parsed = try await ProcessRunner.run(
            ProjectPaths.python,
            [
                "-c",
                """
                import json, sys, yaml
                print(json.dumps([list(yaml.safe_load_all(open(f))) for f in sys.argv[1:]]))
                """, "\(deploy)/kubernetes/batch-job.yaml", "\(deploy)/kubernetes/verify-job.yaml",
            ])
        #expect(parsed.status == 0, "\(parsed.stderr)")
        let files = try #require(try JSONSerialization.jsonObject(with: parsed.stdoutData) as? [[[String: Any]]])
        let job = try #require(files.first?.first)
        #expect(job["apiVersion"] as? String == "batch/v1" && job["kind"] as? String == "Job")
        let spec = try #require(job["spec"] as? [String: Any])
        #expect(spec["completionMode"] as? String == "Indexed")
        let completions = try #require(spec["completions"] as? Int)
        #expect(completions > 1 && spec["parallelism"] as? Int == completions)
        let pod = try #require((spec["template"] as? [String: Any])?["spec"] as? [String: Any])
        #expect(["Never", "OnFailure"].contains(pod["restartPolicy"] as? String ?? ""))
        let container = try #require((pod["containers"] as? [[String: Any]])?.first)
        #expect(container["image"] is String)
        let command = try #require(container["command"] as? [String])
        #expect(command.prefix(2) == ["voicealarm", "batch"])
        #expect(zip(command, command.dropFirst()).contains { $0 == "--shards" && $1 == "\(completions)" }, "--shards is the Job's completions")
        #expect(!command.contains("--shard"), "the index comes from JOB_COMPLETION_INDEX")
        let mount = try #require((container["volumeMounts"] as? [[String: Any]])?.first)
        let mountPath = try #require(mount["mountPath"] as? String)
        let volume = try #require((pod["volumes"] as? [[String: Any]])?.first)
        #expect(volume["name"] as? String == mount["name"] as? String && volume["persistentVolumeClaim"] != nil)
        let out = try #require(command.firstIndex(of: "--out").map { command[$0 + 1] })
        #expect(command[2].hasPrefix(mountPath + "/") && out.hasPrefix(mountPath + "/"), "manifest and output on the volume")

        let verifyJob = try #require(files.last?.first)
        let verifyCommand = try #require(
            ((((verifyJob["spec"] as? [String: Any])?["template"] as? [String: Any])?["spec"] as? [String: Any])?["containers"] as? [[String: Any]])?.first?[
                "command"] as? [String])
        #expect(verifyCommand.contains("--verify") && verifyCommand[2] == command[2] && verifyCommand.contains(out))

        // The pods' command, run here as Kubernetes would: one process per index at once, the volume a folder.
        let dir = TemporaryDirectory("k8s")
        let here = { (arguments: [String]) in Array(arguments.dropFirst().map { $0.replacingOccurrences(of: mountPath, with: dir.path) }) }
        try sampleManifest(dir, at: here(["", command[2]])[0])
        let pods = try (0..<completions).map {
            try ShardProcess(here(command), environment: ["JOB_COMPLETION_INDEX": "\($0)"], logs: dir.file("pod-\($0)"))
        }
        var built: [String] = []
        for pod in pods {
            let (status, report, stderr) = await pod.finish()
            #expect(status == 0, "\(stderr)")
            #expect((report["shard"] as? [String: Any])?["source"] as? String == "JOB_COMPLETION_INDEX")
            built += report["built"] as? [String] ?? []
        }
        #expect(built.sorted() == (0..<6).map { "p\($0)" })
        let verified = try await ShardProcess(here(verifyCommand), environment: [:], logs: dir.file("verify")).finish()
        #expect(verified.status == 0, "\(verified.stderr)")
    }

    @Test("The Slurm script passes bash -n and, run as an array's tasks, builds a manifest here", .timeLimit(.minutes(1)))
    func slurm() async throws {
        let script = "\(deploy)/slurm/batch-ringtones.sbatch"
        #expect(try await ProcessRunner.run("bash", ["-n", script]).status == 0)
        let text = try String(contentsOfFile: script, encoding: .utf8)
        let array = try #require(text.split(separator: "\n").first { $0.hasPrefix("#SBATCH --array=") })
        let range = array.dropFirst("#SBATCH --array=".count).split(separator: "-").compactMap { Int($0) }
        #expect(range.count == 2 && range[0] == 1 && range[1] > 1)
        let count = range.last ?? 1

        let dir = TemporaryDirectory("slurm")
        try sampleManifest(dir, at: dir.file("playlists.json"))
        try FileManager.default.createDirectory(atPath: dir.file("bin"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: dir.file("bin/voicealarm"), withDestinationPath: ProjectPaths.binary)
        let path = dir.file("bin") + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let tasks = try (1...count).map { id in
            try ShardProcess(
                [script],
                environment: [
                    "PATH": path, "MANIFEST": dir.file("playlists.json"), "OUT": dir.file("ringtones"),
                    "SLURM_ARRAY_TASK_ID": "\(id)", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_MAX": "\(count)",
                    "SLURM_ARRAY_TASK_COUNT": "\(count)", "SLURM_CPUS_PER_TASK": "1",
                ],
                logs: dir.file("task-\(id)"), executable: "/bin/bash")
        }
        var built: [String] = []
        for (index, task) in tasks.enumerated() {
            let (status, report, stderr) = await task.finish()
            #expect(status == 0, "\(stderr)")
            let shard = report["shard"] as? [String: Any]
            #expect(shard?["index"] as? Int == index + 1 && shard?["count"] as? Int == count && shard?["source"] as? String == "SLURM_ARRAY_TASK_ID")
            built += report["built"] as? [String] ?? []
        }
        #expect(built.sorted() == (0..<6).map { "p\($0)" })
        await #expect(try voicealarm(["batch", dir.file("playlists.json"), "--out", dir.file("ringtones"), "--verify"]).status == 0)
    }

    @Test("The container recipe builds with the Makefile's packages and runs with exactly the libraries the binary links and opens")
    func container() async throws {
        let recipe = try String(contentsOfFile: "\(deploy)/Containerfile", encoding: .utf8)
        let stages = aptPackages(recipe)
        #expect(stages.count == 2)
        let build = try await makeVariable("BUILD_PACKAGES")
        let everything = try await makeVariable("DEBIAN_PACKAGES")
        #expect(!build.isEmpty && build.isSubset(of: everything))
        #expect(stages.first == build, "the build stage installs the Makefile's BUILD_PACKAGES")
        #expect(recipe.contains("FROM debian:12") && recipe.contains("bookworm"), "Debian 12 throughout")

        // What the binary needs at run time, by Debian's own account: the packages owning its shared C libraries.
        let needed = try await ProcessRunner.run("readelf", ["-d", ProjectPaths.binary]).stdout.split(separator: "\n")
            .compactMap { line -> String? in
                guard line.contains("(NEEDED)"), let open = line.firstIndex(of: "["), let close = line.firstIndex(of: "]") else { return nil }
                return String(line[line.index(after: open)..<close])
            }
        // And those it opens on first use (FFmpeg, eSpeak NG, libmosquitto): the sonames their shims
        // give CLazyLoad, as the C preprocessor expands them ("libavformat.so." "59").
        var opened: [String] = []
        let soname = try NSRegularExpression(pattern: #""(lib[A-Za-z0-9_+-]+\.so\.)(?:"\s*")?([0-9]+)""#)
        for module in ["CFFmpeg", "CEspeakNG", "CMosquitto"] {
            let expanded = try await ProcessRunner.run("cpp", ["-P", "\(ProjectPaths.root)/Sources/\(module)/shim.h"]).stdout
            let declared = expanded[expanded.range(of: "_lazy_open(void)")!.upperBound...]
            let text = String(declared.prefix { $0 != ";" })
            opened += soname.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
                (1...2).map { String(text[Range(match.range(at: $0), in: text)!]) }.joined()
            }
        }
        #expect(opened.count == 7, "FFmpeg's five, eSpeak NG and libmosquitto: \(opened)")
        // One dpkg -S for them all (each reads every package's file list): a library no package
        // owns (the Swift runtime, linked statically into the container's binary) is only left
        // out of its output, with exit 1.
        let owner = try await ProcessRunner.run("dpkg", ["-S"] + (needed + opened).map { "*/\($0)" })
        var owners = Set(owner.stdout.split(separator: "\n").compactMap { $0.split(separator: ":").first.map(String.init) })
        owners.subtract(["libc6", "libc6-dev", "libgcc-s1", "libstdc++6"])  // in every Debian image
        #expect(stages.last == owners, "runtime packages \(stages.last ?? []) vs the binary's \(owners)")
    }
}
