import Foundation
import TestSupport
import Testing
import VoiceAlarmCLI

/// Runs a shell line in the package root; returns its status and combined output.
private func shell(_ line: String, environment: [String: String] = [:]) async throws -> ProcessResult {
    var env = ProcessInfo.processInfo.environment
    env["PATH"] = URL(fileURLWithPath: ProjectPaths.binary).deletingLastPathComponent().path + ":" + (env["PATH"] ?? "/usr/bin:/bin")
    env.merge(environment) { $1 }
    return try await ProcessRunner.run("/bin/bash", ["-c", "cd \"$0\" && \(line)", ProjectPaths.root], environment: env)
}

/// Every regular file under `folder`, relative.
private func files(under folder: String) -> [String] {
    (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? [])
        .filter {
            var d: ObjCBool = false; return FileManager.default.fileExists(atPath: "\(folder)/\($0)", isDirectory: &d) && !d.boolValue
        }.sorted()
}

@Suite("Installed for keeps: man pages, completions and the package's user units from the command tables, make install and uninstall", .serialized)
struct InstallTests {
    @Test("The checked-in man pages and completions are exactly what the command tables write ('make docs' after a change)")
    func docsMatchTables() throws {
        let man = "\(ProjectPaths.root)/share/man/man1", completions = "\(ProjectPaths.root)/share/completions"
        #expect(files(under: man) == ManPages.all().map(\.file).sorted())
        for page in ManPages.all() { #expect(try String(contentsOfFile: "\(man)/\(page.file)", encoding: .utf8) == page.text, "\(page.file) drifted") }
        #expect(files(under: completions) == Completions.all().map(\.file).sorted())
        for script in Completions.all() {
            #expect(try String(contentsOfFile: "\(completions)/\(script.file)", encoding: .utf8) == script.text, "\(script.file) drifted")
        }
        let units = "\(ProjectPaths.root)/share/systemd/user"
        #expect(files(under: units) == ["voicealarm-daemon.service", "voicealarm-mqtt.service", "voicealarm-web.service"])
        for unit in ShippedUnits.all() { #expect(try String(contentsOfFile: "\(units)/\(unit.file)", encoding: .utf8) == unit.text, "\(unit.file) drifted") }
    }

    @Test("The package's user units pass systemd-analyze verify, their man pages found, and name no data dir")
    func shippedUnitsVerify() async throws {
        let folder = TemporaryDirectory("shipped-units")
        for unit in ShippedUnits.all() {
            let execStart = unit.text.split(separator: "\n").filter { $0.hasPrefix("ExecStart=") }
            #expect(
                execStart.count == 1 && !execStart[0].contains("--data-dir") && !unit.text.contains("X-VoiceAlarm-DataDir"),
                "each account's default library: \(unit.file)")
            // The package's binary is /usr/bin/voicealarm; the one under test stands in for it.
            try unit.text.replacingOccurrences(of: "ExecStart=/usr/bin/voicealarm ", with: "ExecStart=\(ProjectPaths.binary) ")
                .write(toFile: folder.file(unit.file), atomically: true, encoding: .utf8)
            let verify = try await shell("MANPATH=$PWD/share/man systemd-analyze --man=yes verify \(folder.file(unit.file))")
            #expect(verify.status == 0 && verify.stderr.isEmpty, "\(unit.file): \(verify.stderr)")
        }
    }

    @Test("Every man page renders without a warning")
    func manPagesRender() async throws {
        for page in ManPages.all() {
            let result = try await shell("groff -man -ww -z share/man/man1/\(page.file)")
            #expect(result.status == 0 && result.stderr.isEmpty, "\(page.file): \(result.stderr)")
        }
    }

    @Test(
        "bash completes a command, a subcommand, an option and a fixed value",
        arguments: [
            ("voicealarm ren", "render"), ("voicealarm clip re", "record remove rename replace"),
            ("voicealarm render --for", "--format"), ("voicealarm render --format m", "m4a mp3"),
            ("voicealarm --scheduler s", "systemd"), ("voicealarm alarm add morning --voice o", "off on"),
            ("voicealarm clip say hi --voice o", ""),  // the same option name, free text for this command
        ])
    func bash(_ line: String, _ expected: String) async throws {
        let words = line.split(separator: " ", omittingEmptySubsequences: false).map { "'\($0)'" }.joined(separator: " ")
        let result = try await shell(
            "source share/completions/voicealarm.bash; COMP_WORDS=(\(words)); COMP_CWORD=\(line.split(separator: " ").count - 1); _voicealarm; printf '%s\\n' \"${COMPREPLY[@]}\" | sort | xargs"
        )
        #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == expected, "\(result.stderr)")
    }

    @Test("fish completes a command, an option's fixed values and a subcommand; zsh loads the function")
    func fishAndZsh() async throws {
        let fish = try await shell(
            "fish -c 'source share/completions/voicealarm.fish; complete -C \"voicealarm ren\"; complete -C \"voicealarm render --format \"; complete -C \"voicealarm clip \"' | cut -f1 | xargs"
        )
        #expect(
            fish.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "render aiff caf m4a mp3 wav import list record remove rename replace say",
            "\(fish.stderr)")
        let zsh = try await shell(
            "zsh -n share/completions/_voicealarm && zsh -f -c 'fpath=(share/completions $fpath); autoload -U compinit && compinit -u -D; autoload -U _voicealarm; whence -w _voicealarm'"
        )
        #expect(zsh.status == 0 && zsh.stdout.contains("_voicealarm: function"), "\(zsh.stdout)\(zsh.stderr)")
        // What the function offers, with zsh's compadd standing in as a printer (completion needs a terminal otherwise).
        for (words, current, expected) in [
            ("voicealarm ren", 2, "render"), ("voicealarm render --for", 3, "--format"), ("voicealarm render --format m", 4, "m4a"),
        ] {
            let offered = try await shell(
                "zsh -f -c 'compadd() { local name=${@[-1]}; print -rl -- ${(P)name} }; _files() { : }; words=(\(words)); CURRENT=\(current); PREFIX=${words[CURRENT]}; source share/completions/_voicealarm'"
            )
            #expect(
                offered.stdout.split(separator: "\n").contains { $0 == expected }, "zsh offers \(expected) for '\(words)': \(offered.stdout)\(offered.stderr)")
        }
    }

    @Test("make install puts a working binary, man pages and completions under PREFIX; make uninstall removes exactly them")
    func installUninstall() async throws {
        let dest = TemporaryDirectory("destdir")
        let make = "make -s --no-print-directory PREFIX=/opt/va DESTDIR=\(dest.path) INSTALL_BIN=\(ProjectPaths.binary)"
        let install = try await shell("\(make) install")
        #expect(install.status == 0, "\(install.stderr)")
        let base = dest.file("opt/va")
        #expect(files(under: base).contains("bin/voicealarm") && files(under: base).contains("share/man/man1/voicealarm.1"))
        #expect(files(under: base).count == ManPages.all().count + Completions.all().count + 3, "the binary, the pages, the completions and the two lists")
        let version = try await ProcessRunner.run("\(base)/bin/voicealarm", ["--version"])
        #expect(version.stdout == "voicealarm \(Version.current)\n")
        let manifest = try String(contentsOfFile: "\(base)/share/voicealarm/installed-files", encoding: .utf8)
        #expect(!manifest.contains(dest.path), "the list names installed paths, not the staging folder")

        let uninstall = try await shell("\(make) uninstall")
        #expect(uninstall.status == 0, "\(uninstall.stderr)")
        #expect(!FileManager.default.fileExists(atPath: base), "nothing left behind: \(files(under: dest.path))")
        let again = try await shell("\(make) uninstall")
        #expect(again.status != 0 && again.stderr.contains("error: ") && again.stderr.contains("is not installed here"))
    }

    @Test("Installing into a read-only PREFIX says why and leaves nothing half-installed")
    func readOnlyPrefix() async throws {
        let dest = TemporaryDirectory("destdir-ro")
        try FileManager.default.createDirectory(atPath: dest.file("opt"), withIntermediateDirectories: true)
        try await ProcessRunner.mustRun("/usr/bin/env", ["mount", "--bind", dest.file("opt"), dest.file("opt")])
        defer { unmountLazily(dest.file("opt")) }
        try await ProcessRunner.mustRun("/usr/bin/env", ["mount", "-o", "remount,bind,ro", dest.file("opt")])
        let install = try await shell("make -s --no-print-directory PREFIX=/opt/va DESTDIR=\(dest.path) INSTALL_BIN=\(ProjectPaths.binary) install")
        #expect(install.status != 0)
        #expect(install.stderr.hasPrefix("error: ") && install.stderr.contains("/opt/va"), "\(install.stderr)")
        #expect(files(under: dest.file("opt")).isEmpty)
    }
}
