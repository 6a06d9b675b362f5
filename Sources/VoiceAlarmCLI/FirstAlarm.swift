/// The walk from a recording to an alarm that rings, as `voicealarm --help` opens with it and
/// `voicealarm(1)`'s EXAMPLES show it: the commands a newcomer needs first, in order.
enum FirstAlarm {
    /// Record or import, arrange, set the alarm, keep something running that rings it, listen,
    /// and ring it once to hear it as the morning will.
    static let commands: [any Command.Type] = [
        ClipRecordCommand.self, ClipImportCommand.self, PlaylistCreateCommand.self, AlarmAddCommand.self,
        ServiceInstallCommand.self, DaemonCommand.self, ListenCommand.self, RingCommand.self,
    ]

    /// The same walk as command lines a person can copy (the ids are ones `clip import` and
    /// `alarm add` print).
    static let example = [
        "voicealarm clip import calm.wav --title 'I am calm'        # or: voicealarm clip record",
        "voicealarm playlist create morning 3f2a9c1e",
        "voicealarm alarm add morning --at 06:45 --days weekdays",
        "voicealarm service install                              # or keep 'voicealarm daemon' running",
        "voicealarm listen morning --ringtone",
        "voicealarm ring 9c41d2e0 --max-seconds 10",
    ]
}
