// Wake up to my voice, from an app: a library in a folder, one recording, a playlist, a
// weekday alarm, and its "wake up to my voice" switch turned off and on again. It prints what
// each call returned, then every rebuild the library reported, one line each.
//
//     WakeUpToMyVoice DATA_DIR RECORDING
//
// Results go to stdout; an error goes to stderr as `error: …` with exit status 1.
import Foundation
import VoiceAlarm
import VoiceAlarmCore

/// One line on stderr.
func complain(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}

/// An event as one line: what happened, to which alarm, and the typed details.
func line(_ event: VoiceAlarmLibrary.Event) -> String {
    switch event {
    case .built(let alarm, let ringtone, let shortfall):
        "built \(alarm.uuidString.lowercased()) \(ringtone)" + (shortfall.map { " (\($0.summary))" } ?? "")
    case .unchanged(let alarm):
        "unchanged \(alarm.uuidString.lowercased())"
    case .onDefaultTone(let alarm, let reason):
        "default-tone \(alarm.uuidString.lowercased()) \(reason)" + (reason.isFailure ? " (failure)" : "")
    case .deferred(let alarm, let reason):
        "deferred \(alarm.uuidString.lowercased()) \(reason)"
    case .warning(let warning):
        "warning \(warning)"
    }
}

/// What an alarm plays, as one word and its reason.
func sound(_ status: AlarmStatus) -> String {
    switch status.sound {
    case .voice(let fileName): "voice \(fileName)"
    case .defaultTone(let reason): "default tone (\(reason))"
    }
}

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    complain("usage: WakeUpToMyVoice DATA_DIR RECORDING")
    exit(64)
}

do {
    let library = try VoiceAlarmLibrary(dataDirectory: arguments[1])
    let clip = try library.importClip(from: arguments[2], title: "Calm")
    print("clip \(clip.id.uuidString.lowercased()) \"\(clip.title)\" \(String(format: "%.2f", clip.duration)) s")

    let morning = try library.createPlaylist("morning", clips: [clip.id])
    print("playlist \(morning)")

    let added = try library.addAlarm(on: morning, at: AlarmTime(hour: 7, minute: 0), days: .workDays)
    let alarm = added.alarm.id
    print("alarm \(alarm.uuidString.lowercased()) \(added.alarm.time) \(added.alarm.days.compact): \(sound(added))")

    let off = try library.setWakeUpToMyVoice(false, for: alarm)
    print("voice off: \(sound(off))")
    let on = try library.setWakeUpToMyVoice(true, for: alarm)
    print("voice on: \(sound(on))")

    // Closing ends the event stream once what the calls above reported is read.
    library.close()
    for await event in library.events {
        print("event \(line(event))")
    }
} catch {
    complain("error: \(error)")
    exit(1)
}
