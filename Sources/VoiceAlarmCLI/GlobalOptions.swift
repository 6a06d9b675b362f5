import VoiceAlarmCore

/// The options every command takes, declared once: where the library is, how to print.
enum GlobalOptions {
    static let dataDir = folder("data-dir", help: "The library's folder (else $VOICEALARM_HOME, else $XDG_DATA_HOME/voicealarm)")
    static let soundsDir = folder("sounds-dir", help: "Where alarm sounds go (default DATA-DIR/Sounds; remembered)")
    static let scheduler: Option<SchedulerBackend?> = .choice(
        "scheduler", value: "NAME", help: "embedded (default) or systemd; remembered, switching moves the alarms",
        SchedulerBackend.allCases.map { ($0.rawValue, $0) }, ignoringCase: false,
        refusal: { text, words in "'\(text)' is not a scheduler (\(words.joined(separator: ", ")))" })
    static let unitDir = folder("unit-dir", help: "Where systemd units go (default ~/.config/systemd/user; remembered)")
    static let json = Flag("json", help: "Print the result as JSON on stdout")
    static let quiet = Flag("quiet", short: "q", help: "Print nothing on stderr but errors")
    static let help = Flag("help", short: "h", help: "Show help")
    static let version = Flag("version", help: "Print the version (with --json: {\"version\"})")

    /// In the order help lists them.
    static let all: [any DeclaredOption] = [dataDir, soundsDir, scheduler, unitDir, json, quiet, help, version]

    /// A folder, made absolute. Such a path is written into the library and into systemd units, so
    /// it may not be empty or hold control characters.
    private static func folder(_ name: String, help: String) -> Option<String?> {
        .reading(name, value: "DIR", kind: .directory, help: help) { text in
            guard !text.isEmpty else { throw OptionRefusal("the folder's path is empty", pointsAtOption: false) }
            guard !PrintableText.hasControlCharacters(text) else {
                throw OptionRefusal("\(PrintableText.refusal) in a folder's path", pointsAtOption: false)
            }
            return LibraryAccess.absolute(text)
        }
    }
}
