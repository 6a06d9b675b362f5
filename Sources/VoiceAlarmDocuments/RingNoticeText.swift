import VoiceAlarm

/// The words for what a ring tells the person (stderr, and a scheduler's journal).
extension RingNotice {
    /// One line: `warning: …` where the person should know, `error: …` when nothing sounded.
    package var line: String {
        switch self {
        case .degraded(let tag, let reason): "warning: \(tag): \(reason); ringing anyway"
        case .missed(let tag, let late, let window): "missed \(tag): due \(late) min ago, more than \(window) min late; not ringing"
        case .voiceFileEmpty(let tag, let file): "warning: \(tag): voice file \(file) holds no audio; ringing the default tone"
        case .voiceFileFailed(let tag, let error): "warning: \(tag): voice file failed at ring time (\(error)); ringing the default tone"
        case .defaultToneFromMemory(let tag, let error): "warning: \(tag): the default tone's file cannot be used (\(error)); ringing it from memory"
        case .deviceRefused(let error): "warning: \(error); trying 'default'"
        case .deviceFailedMidRing(let tag, let device, let error): "warning: \(tag): '\(device)' failed mid-ring (\(error)); trying 'default'"
        case .ringingOn(let tag, let device): "\(tag): ringing on '\(device)'"
        case .noMixer(let device): "'\(device)' has no mixer to unmute; ringing anyway."
        case .mixerAlreadyUp(let device): "The mixer of '\(device)' is already up."
        case .mixerRaised(let changes): "For the ring: " + changes.joined(separator: ", ") + " (restored afterwards)."
        case .entryNotRemoved(let tag, let error): "warning: \(tag): the ringing entry cannot be removed (\(error))"
        case .eventLogUnwritable(let error): "warning: the event log cannot be written (\(error)); this ring is not recorded there"
        case .madeNoSound(let tag, let reason): "error: ALARM MADE NO SOUND: \(tag): \(reason)"
        }
    }
}
