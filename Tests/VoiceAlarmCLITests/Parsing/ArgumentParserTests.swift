import Foundation
import Testing

@testable import VoiceAlarmCLI

@Suite("Parsing the command line")
struct ArgumentParserTests {
    let parser = VoiceAlarmTool.parser

    @Test("Global options are accepted before and after the subcommand")
    func globalAnywhere() throws {
        let before = try parser.parse(["--json", "render", "-o", "x.m4a", "a.wav"])
        let after = try parser.parse(["render", "-o", "x.m4a", "a.wav", "--json"])
        #expect(before == after)
        #expect(before.has("json"))
        #expect(before.arguments == ["a.wav"])
    }

    @Test("Values come attached or separate; -- ends the options")
    func valueForms() throws {
        let parsed = try parser.parse(["render", "--cap=20", "-ox.m4a", "--target-lufs", "-20", "--", "--odd-name.wav"])
        #expect(parsed.value("cap") == "20")
        #expect(parsed.value("output") == "x.m4a")
        #expect(parsed.value("target-lufs") == "-20")
        #expect(parsed.arguments == ["--odd-name.wav"])
    }

    @Test("A negative number is an argument, not an option", arguments: [["settings", "target-lufs", "-18"], ["settings", "target-lufs", "-18.5"]])
    func negativeNumbers(_ arguments: [String]) throws {
        let parsed = try parser.parse(arguments)
        #expect(parsed.arguments == Array(arguments[1...]))
        #expect(throws: UsageError.self) { try parser.parse(["settings", "target-lufs", "-x18"]) }
    }

    @Test("--help skips the argument count check")
    func helpWithoutArguments() throws {
        #expect(try parser.parse(["render", "--help"]).has("help"))
    }
}

@Suite("Help text")
struct HelpTests {
    private func run(_ arguments: [String]) -> (Int32, String, String) {
        nonisolated(unsafe) var out = "", err = ""
        let status = VoiceAlarmTool.run(arguments, console: Console(writeOut: { out += $0 }, writeErr: { err += $0 }))
        return (status, out, err)
    }

    @Test("voicealarm render --help, exactly")
    func renderHelp() {
        let (status, out, err) = run(["render", "--help"])
        #expect(status == 0)
        #expect(err.isEmpty)
        #expect(
            out == """
                voicealarm render: Stitch clips, in order, into one ringtone under the cap

                usage: voicealarm render [options] -o OUT IN...

                  Clips play in the order given. A clip is used only if the ringtone including it, gaps
                  counted, stays within the cap; the first clip that would cross it stops the playlist.
                  A first clip longer than the cap is cut at the cap and faded out. Silence below -50 dBFS
                  is trimmed from each clip's ends (50 ms kept). Loudness is measured over the whole
                  ringtone (EBU R128) and brought to the target with one gain (at most +20 dB) and a
                  limiter, so the true peak stays at or below -1 dBTP after encoding. The file is checked
                  before it replaces OUT; on any error OUT is left as it was.
                  Prints OUT on stdout (the full report with --json); a summary goes to stderr.

                options:
                  -o, --output OUT         Where to write the ringtone; its extension picks the format
                      --format FORMAT      m4a (AAC, default), caf, wav, aiff or mp3
                      --codec CODEC        pcm (16-bit, caf/wav/aiff default) or ima4 (caf, aiff)
                      --cap SECONDS        Longest ringtone, more than 0 and less than 30 (default 29)
                      --gap SECONDS        Silence between clips, 0 to 1, counted against the cap (default 0.3)
                      --no-trim-silence    Keep each clip's leading and trailing silence
                      --target-lufs LUFS   Loudness to normalise to, -40 to -6 (default -16)
                      --no-normalize       Leave the loudness as recorded
                      --waveform FILE.svg  Also draw the ringtone as SVG: waveform, clip spans, the cap

                options for every command:
                      --data-dir DIR    The library's folder (else $VOICEALARM_HOME, else $XDG_DATA_HOME/voicealarm)
                      --sounds-dir DIR  Where alarm sounds go (default DATA-DIR/Sounds; remembered)
                      --scheduler NAME  embedded (default) or systemd; remembered, switching moves the alarms
                      --unit-dir DIR    Where systemd units go (default ~/.config/systemd/user; remembered)
                      --json            Print the result as JSON on stdout
                  -q, --quiet           Print nothing on stderr but errors
                  -h, --help            Show help
                      --version         Print the version (with --json: {"version"})

                examples:
                  voicealarm render -o morning.m4a calm.wav ready.mp3 grateful.flac
                  voicealarm render --format caf --codec ima4 -o morning.caf manifesto.m4a
                  voicealarm render --cap 20 --gap 0.5 --json -o short.m4a a.wav b.wav
                  voicealarm render -o morning.m4a --waveform morning.svg calm.wav ready.mp3

                """)
    }

    @Test("voicealarm --help lists every command", arguments: [["--help"], ["help"], ["-h"]])
    func topLevelHelp(_ arguments: [String]) {
        let (status, out, _) = run(arguments)
        #expect(status == 0)
        for command in [
            "render", "check", "clip import", "playlist move", "manifesto set", "alarm add", "voice off",
            "scheduler list", "settings", "help",
        ] { #expect(out.contains("\n  \(command) ")) }
    }

    @Test("voicealarm --help opens with the first voice alarm: record or import, playlist, alarm, what rings it, listen, ring")
    func firstAlarmFirst() throws {
        let out = run(["--help"]).1
        let section = try #require(out.components(separatedBy: "your first voice alarm:\n").dropFirst().first?.components(separatedBy: "\n\n").first)
        let lines = section.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let expected = ["clip record", "clip import", "playlist create", "alarm add", "service install", "daemon", "listen", "ring"]
        #expect(lines.count == expected.count && zip(lines, expected).allSatisfy { $0.hasPrefix($1 + "  ") }, "\(lines)")
        #expect(out.range(of: "your first voice alarm:")!.lowerBound < out.range(of: "\n  render ")!.lowerBound, "render and check come later")
    }

    @Test("help COMMAND is the command's --help")
    func helpCommand() {
        #expect(run(["help", "check"]).1 == run(["check", "--help"]).1)
    }
}
