import Foundation
import TestSupport
import Testing

/// The variables job engines set; removed from every shard's environment before a test sets its own.
@Suite("voicealarm batch in shards: Indexed Jobs, Slurm arrays")
struct BatchShardTests {
    @Test(
        "60 ringtones as 4 shards at once into one folder: each built once, as render makes it; re-runs skip; a changed clip rebuilds its users once",
        .timeLimit(.minutes(4)))
    func fourShards() async throws {
        let folder = try await ShardFolder()
        var reference: [String: Data] = [:]
        // make test runs the engine that reads its index from the environment (Indexed Jobs); the
        // --shard option and Slurm's variables run in make test-full (and Slurm for real in make test-cluster).
        for source in TestScope.cases(ShardSource.allCases, quick: [.kubernetes]) {
            let out = folder.dir.file("out-\(source.rawValue)")
            let first = try await folder.runShards(source, out: out)
            var owner: [String: Int] = [:]
            for (index, shard) in first.enumerated() {
                #expect(shard.status == 0, "\(source) shard \(index + 1): \(shard.stderr)")
                let shardInfo = shard.report["shard"] as? [String: Any]
                #expect(shardInfo?["index"] as? Int == index + 1 && shardInfo?["count"] as? Int == 4)
                #expect(shardInfo?["source"] as? String == source.reported)
                for id in reportIDs(shard.report, "built") {
                    #expect(owner[id] == nil, "\(id) built by shards \(owner[id] ?? 0) and \(index + 1)")
                    owner[id] = index + 1
                }
                #expect(reportIDs(shard.report, "skipped").isEmpty)
                let described = (shard.report["ringtones"] as? [[String: Any]])?.compactMap { $0["id"] as? String }
                #expect(described == reportIDs(shard.report, "built"), "every ringtone in place is described")
            }
            #expect(Set(owner.keys) == Set(folder.ids) && owner.count == 60, "the union of the shards' built lists is the manifest")
            #expect(Set(owner.values).count == 4, "every shard had work: \(owner)")
            for n in 0..<10 {
                #expect(owner[folder.ids[n]] == owner[folder.ids[n + 50]], "declared alike, so in one shard")
            }

            // Every output is what `voicealarm render` makes of the same clips (rendered once; the other folders must match).
            for id in folder.ids {
                let output = try Data(contentsOf: URL(fileURLWithPath: "\(out)/\(id).wav"))
                if reference[id] == nil {
                    let (clips, gap) = folder.plan[id]!
                    let rendered = folder.dir.file("render-\(id).wav")
                    let render = try await voicealarm(["render", "-q", "-o", rendered, "--gap", "\(gap)"] + clips.map { folder.dir.file($0) })
                    #expect(render.status == 0, "\(render.stderr)")
                    reference[id] = try Data(contentsOf: URL(fileURLWithPath: rendered))
                }
                #expect(output == reference[id], "\(source) \(id) is byte for byte what render makes")
            }

            let again = try await folder.runShards(source, out: out)
            for (index, shard) in again.enumerated() {
                #expect(shard.status == 0)
                #expect(reportIDs(shard.report, "built").isEmpty, "shard \(index + 1) re-run builds nothing")
                #expect(Set(reportIDs(shard.report, "skipped")) == Set(owner.filter { $0.value == index + 1 }.keys))
            }
            let (verified, verdict) = try await folder.verify(out)
            #expect(verified.status == 0 && verdict["ok"] as? Bool == true && verdict["checked"] as? Int == 60, "\(verified.stdout)")
            #expect(leftovers(out).isEmpty, "left: \(leftovers(out))")

            // One clip changes: --verify names its users stale; the shards rebuild exactly those, each once, in its own shard.
            let clip = "clips/c3.flac"
            try await AudioFixtures.tone(folder.dir.file("clips/c3-new.flac"), seconds: 1.1, frequency: 1234)
            try FileManager.default.removeItem(atPath: folder.dir.file(clip))
            try FileManager.default.moveItem(atPath: folder.dir.file("clips/c3-new.flac"), toPath: folder.dir.file(clip))
            let users = folder.users(of: clip)
            #expect(users.count >= 10)
            let (stale, staleVerdict) = try await folder.verify(out)
            #expect(stale.status == 1)
            #expect(Set((staleVerdict["stale"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }) == users)
            let changed = try await folder.runShards(source, out: out)
            var rebuilt: [String: Int] = [:]
            for (index, shard) in changed.enumerated() {
                #expect(shard.status == 0)
                for id in reportIDs(shard.report, "built") {
                    #expect(rebuilt[id] == nil, "\(id) rebuilt twice")
                    rebuilt[id] = index + 1
                    #expect(owner[id] == index + 1, "a clip's new bytes never move a ringtone to another shard")
                }
            }
            #expect(Set(rebuilt.keys) == users)
            await #expect(try folder.verify(out).0.status == 0)
            // Put the clip back for the next engine's run.
            try await AudioFixtures.tone(folder.dir.file(clip), seconds: 0.6 + 3.0 / 5, frequency: 300 + 330)
        }
    }

    @Test(
        "A shard killed with SIGKILL mid-way and run again completes the set; --verify passes; nothing temporary remains",
        .timeLimit(.minutes(3)))
    func killedShard() async throws {
        let folder = try BatchFolder()
        // 40 ringtones of close to 29 s (the 35 s manifesto cut at the cap): seconds of work per shard.
        let ringtones = (0..<40).map { #"{"id": "k\#($0)", "clips": ["clips/manifesto.flac", "clips/calm.wav"], "gap": \#(Double($0) / 50)}"# }
        try folder.write(#"{"format": "wav", "ringtones": [\#(ringtones.joined(separator: ", "))]}"#)
        let out = folder.out
        let shards = try (0..<4).map { index in
            try ShardProcess(
                ["batch", folder.manifest, "--out", out, "--json", "--jobs", "1", "--shard", "\(index + 1)/4"],
                environment: [:], logs: folder.dir.file("shard-\(index)"))
        }
        let victim = shards[1]
        var sawCache = false
        for _ in 0..<3_000 where victim.process.isRunning {
            let cache = ((try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []).contains {
                $0.hasPrefix(".voicealarm-cache-") && $0.contains("-s2of4_")
            }
            let finished = ((try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []).filter { $0.hasSuffix(".wav") }.count
            if cache { sawCache = true }
            if sawCache && finished >= 4 { break }
            await pause(0.01)
        }
        #expect(victim.process.isRunning, "shard 2 ended before it could be killed")
        kill(victim.process.processIdentifier, SIGKILL)
        _ = await victim.finish()
        let others = await [shards[0], shards[2], shards[3]].asyncMap { await $0.finish() }
        #expect(others.allSatisfy { $0.status == 0 })

        // Nothing half-written under a ringtone's name: every visible file decodes whole.
        for name in try FileManager.default.contentsOfDirectory(atPath: out) where name.hasSuffix(".wav") {
            let probe = try await IndependentMeasure.probe("\(out)/\(name)")
            #expect(probe.duration > 28 && probe.duration < 29.01, "\(name): \(probe.duration) s")
        }
        let check = try await voicealarm(["batch", folder.manifest, "--out", out, "--verify", "--json"])
        #expect(check.status == 1)
        let verdict = (try? JSONSerialization.jsonObject(with: check.stdoutData) as? [String: Any]) ?? [:]
        let lost = Set((verdict["missing"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String })
        #expect(!lost.isEmpty, "the killed shard left ringtones unbuilt")

        // The engine's retry of the same index finishes the job.
        let retry = try await ShardProcess(
            ["batch", folder.manifest, "--out", out, "--json", "--jobs", "1", "--shard", "2/4"],
            environment: [:], logs: folder.dir.file("retry")
        ).finish()
        #expect(retry.status == 0, "\(retry.stderr)")
        #expect(lost.isSubset(of: Set(reportIDs(retry.report, "built"))))
        #expect(Set(reportIDs(retry.report, "built")).isDisjoint(with: Set(others.flatMap { reportIDs($0.report, "built") })))
        let verified = try await voicealarm(["batch", folder.manifest, "--out", out, "--verify"])
        #expect(verified.status == 0, "\(verified.stdout)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasSuffix(".wav") }.count == 40)
        #expect(leftovers(out).isEmpty, "left: \(leftovers(out))")
    }

    @Test(
        "Bad shards are usage errors: one line and a hint, exit 64, nothing built or removed",
        arguments: [
            (["--shard", "0/4"], [String: String](), "--shard: '0/4': the shard must be 1 to 4"),
            (["--shard", "5/4"], [:], "the shard must be 1 to 4"),
            (["--shard", "1/0"], [:], "the count must be 1 to"),
            (["--shard", "a/b"], [:], "--shard: 'a/b' is not K/N"),
            (["--shards", "4"], ["JOB_COMPLETION_INDEX": "4"], "JOB_COMPLETION_INDEX=4 is out of range for 4 shards"),
            (["--shards", "4"], ["JOB_COMPLETION_INDEX": "two"], "JOB_COMPLETION_INDEX='two' is not a shard index"),
            ([], ["SLURM_ARRAY_TASK_ID": "9", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": "4"], "out of range for 4 shards"),
            ([], ["AWS_BATCH_JOB_ARRAY_INDEX": "x"], "AWS_BATCH_JOB_ARRAY_INDEX='x' is not a shard index"),
            ([], ["JOB_COMPLETION_INDEX": "1"], "give --shards N"),
            (["--shard", "1/4"], ["JOB_COMPLETION_INDEX": "2"], "--shard 1/4 contradicts JOB_COMPLETION_INDEX (shard 3/4)"),
            (["--shards", "4"], [:], "--shards 4 needs a shard index"),
        ])
    func badShards(_ arguments: [String], _ environment: [String: String], _ message: String) async throws {
        let folder = try BatchFolder()
        try folder.write(#"{"format": "wav", "ringtones": [{"id": "a", "clips": ["clips/calm.wav"]}, {"id": "b", "clips": ["clips/kind.ogg"]}]}"#)
        await #expect(try folder.run(["--format", "wav"]).0.status == 0)
        let before = leftovers(folder.out) + ((try? FileManager.default.contentsOfDirectory(atPath: folder.out)) ?? []).sorted()
        let stamps = try ["a.wav", "b.wav"].map { try FileManager.default.attributesOfItem(atPath: "\(folder.out)/\($0)")[.modificationDate] as? Date }
        let result = try await ShardProcess(
            ["batch", folder.manifest, "--out", folder.out] + arguments, environment: environment,
            logs: folder.dir.file("bad")
        ).finish()
        #expect(result.status == 64)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 2 && lines[0].hasPrefix("error: ") && lines[0].contains(message), "\(result.stderr)")
        #expect(lines.last == "see 'voicealarm batch --help'")
        #expect(leftovers(folder.out) + ((try? FileManager.default.contentsOfDirectory(atPath: folder.out)) ?? []).sorted() == before)
        #expect(try ["a.wav", "b.wav"].map { try FileManager.default.attributesOfItem(atPath: "\(folder.out)/\($0)")[.modificationDate] as? Date } == stamps)
        // Nothing made where nothing was.
        let fresh = folder.dir.file("fresh")
        _ = try await ShardProcess(["batch", folder.manifest, "--out", fresh] + arguments, environment: environment, logs: folder.dir.file("bad2")).finish()
        #expect(!FileManager.default.fileExists(atPath: fresh))
    }

    @Test("--verify on a folder never built: one line, exit 1, nothing made")
    func verifyNeverBuilt() async throws {
        let folder = try BatchFolder()
        try folder.write(#"{"ringtones": [{"id": "a", "clips": ["clips/calm.wav"]}]}"#)
        for out in [folder.out, folder.dir.file("clips")] {
            let before = folder.dir.contents()
            let result = try await voicealarm(["batch", folder.manifest, "--out", out, "--verify"])
            #expect(result.status == 1)
            #expect(result.stderr == "error: \(out): no batch was built here (no .voicealarm-batch.d); nothing to verify\n")
            #expect(result.stdout.isEmpty)
            #expect(folder.dir.contents() == before)
        }
    }

    @Test("--verify names what is missing or stale, one per line on stdout")
    func verifyLines() async throws {
        let folder = try BatchFolder()
        try folder.write(
            #"{"format": "wav", "ringtones": [{"id": "a", "clips": ["clips/calm.wav"]}, {"id": "b", "clips": ["clips/kind.ogg"]}, {"id": "c", "clips": ["clips/ready.mp3"]}]}"#
        )
        await #expect(try folder.run().0.status == 0)
        try FileManager.default.removeItem(atPath: "\(folder.out)/a.wav")
        try Data("not the ringtone".utf8).write(to: URL(fileURLWithPath: "\(folder.out)/b.wav"))
        let result = try await voicealarm(["batch", folder.manifest, "--out", folder.out, "--verify"])
        #expect(result.status == 1)
        #expect(result.stdout == "missing a: a.wav is not in \(folder.out)\nstale b: b.wav changed since it was built\n")
        #expect(result.stderr.contains("1 missing and 1 stale of 3 ringtones."))
    }

    @Test("A ringtone that lost clips to the cap, or is very short, is flagged on stderr and in warnings; the report lists each clip's fate")
    func capWarning() async throws {
        let folder = try BatchFolder()
        try await AudioFixtures.tone(folder.dir.file("clips/short.wav"), seconds: 0.95)
        try folder.write(
            #"""
            {"format": "wav", "ringtones": [
              {"id": "capped", "clips": ["clips/short.wav", "clips/manifesto.flac", "clips/calm.wav"], "trimSilence": false},
              {"id": "fine", "clips": ["clips/calm.wav", "clips/ready.mp3"]}
            ]}
            """#)
        let result = try await voicealarm(["batch", folder.manifest, "--out", folder.out, "--json"])
        #expect(result.status == 0, "a warning is not a failure")
        let report = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        #expect(Set(report.keys) == ["built", "skipped", "failed", "warnings", "ringtones", "shard", "seconds"])
        let warnings = report["warnings"] as? [[String: String]]
        #expect(warnings?.count == 1 && warnings?[0]["id"] == "capped")
        #expect(warnings?[0]["warning"] == "2 of 3 clips left out: manifesto.flac crosses the 29.0 s cap; the ringtone is 0.95 s")
        #expect(result.stderr.contains("warning: capped: 2 of 3 clips left out: manifesto.flac crosses the 29.0 s cap"))
        let capped = (report["ringtones"] as? [[String: Any]])?.first { $0["id"] as? String == "capped" }
        #expect(capped?["output"] as? String == "\(folder.out)/capped.wav")
        #expect(abs((capped?["duration"] as? Double ?? 0) - 0.95) < 0.01)
        let clips = capped?["clips"] as? [[String: Any]]
        #expect(clips?.map { $0["used"] as? Bool } == [true, false, false])
        #expect(clips?.map { $0["reason"] as? String } == [nil, "crosses cap", "after a clip that crossed the cap"])
        #expect(clips?[1]["input"] as? String == folder.dir.file("clips/manifesto.flac"))
        #expect(await abs(try IndependentMeasure.probe("\(folder.out)/capped.wav").duration - 0.95) < 0.01)
        // A re-run skips it, still reports the warning (for a pipeline), and does not repeat it to a person.
        let again = try await voicealarm(["batch", folder.manifest, "--out", folder.out, "--json"])
        let second = try JSONSerialization.jsonObject(with: again.stdoutData) as? [String: Any]
        #expect(second?["skipped"] as? [String] == ["capped", "fine"])
        #expect((second?["warnings"] as? [[String: String]])?.first?["id"] == "capped")
        #expect(!again.stderr.contains("warning:"))
        let shard = second?["shard"] as? [String: Any]
        #expect(shard?["index"] as? Int == 1 && shard?["count"] as? Int == 1 && shard?["source"] as? String == "none")
    }

    @Test(
        "A failure that ends the whole batch prints the same JSON error object on stdout as every other command",
        arguments: [
            (["batch", "MANIFEST", "--out", "OUT", "--json"], 1, "not JSON"),
            (["batch", "MANIFEST", "--out", "OUT", "--json", "--shard", "5/4"], 64, "the shard must be 1 to 4"),
            (["batch", "MANIFEST", "--out", "CLIPS", "--verify", "--json"], 1, "no batch was built here"),
        ])
    func jsonErrorObject(_ template: [String], _ code: Int, _ message: String) async throws {
        let folder = try BatchFolder()
        try folder.write(message == "not JSON" ? "not json at all" : #"{"ringtones": [{"id": "a", "clips": ["clips/calm.wav"]}]}"#)
        let arguments = template.map { $0 == "MANIFEST" ? folder.manifest : $0 == "OUT" ? folder.out : $0 == "CLIPS" ? folder.dir.file("clips") : $0 }
        let result = try await voicealarm(arguments)
        #expect(result.status == Int32(code))
        #expect(result.stderr.hasPrefix("error: ") && result.stderr.contains(message), "\(result.stderr)")
        // The object is the top level's, shared by every command: batch prints it exactly when another command's failure does.
        let other = try await voicealarm(["render", "--json", "-o", folder.dir.file("x.wav"), folder.dir.file("missing.wav")])
        let otherPrints = (try? JSONSerialization.jsonObject(with: other.stdoutData) as? [String: Any])?["error"] != nil
        let object = (try? JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])?["error"] as? [String: Any]
        #expect((object != nil) == otherPrints, "stdout: \(result.stdout)")
        if let object {
            #expect(object["code"] as? Int == code)
            #expect((object["message"] as? String)?.contains(message) == true)
            #expect(object.keys.contains("input"))
        } else {
            #expect(result.stdout.isEmpty)
        }
    }
}
