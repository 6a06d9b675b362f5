import Foundation
import VoiceAlarm
import VoiceAlarmCore

/// The words for what a workflow warns of: the service hands over values, the command line
/// alone decides how they read.
extension ServiceWarning {
    /// One line for stderr, `warning: …` where the person should act or know.
    package var line: String {
        switch self {
        case .clipUnusable(let clip, let title, let target, let reason):
            "warning: clip \(Self.id(clip)) (\(title)) left out of \(target): \(reason)"
        case .clipMissing(let clip, let title, let target):
            "warning: clip \(Self.id(clip)) (\(title)): its recording is missing; left out of \(target)"
        case .ringtoneQuiet(let alarm, let shortfall):
            "warning: alarm \(Self.id(alarm)): its ringtone's loudness is \(shortfall.summary)"
        case .rebuildDeferred(let alarm, let error, let keptFile):
            "warning: alarm \(Self.id(alarm)): its ringtone could not be rebuilt (\(error)); it keeps its current voice file \(keptFile) until it can be"
        case .onDefaultTone(let alarm, let reason):
            "warning: alarm \(Self.id(alarm)): \(reason); it will ring with the default tone"
        case .rebuildWorkerUnavailable(let error):
            "warning: a rebuild worker could not open the library (\(error)); fewer ringtones are built at once"
        case .notScheduled(let alarm, let error):
            "warning: alarm \(Self.id(alarm)) could not be scheduled: \(error)"
        case .notCancelled(let alarm, let error):
            "warning: alarm \(Self.id(alarm)) could not be cancelled: \(error)"
        case .schedulerListRemade(let reason, let keptAs):
            "warning: the embedded scheduler's list was damaged (\(reason)); kept as \(keptAs) and made again from the library"
        case .folderMadePrivate(let path, let previousMode):
            String(format: "Made %@ private: it was open to other users (mode %04o), it is 0700 now.", path, previousMode)
        case .libraryMovedAside(let path):
            "The damaged library is kept as \(path)."
        case .soundFileNotRemoved(let alarm, let path, let error):
            "warning: alarm \(Self.id(alarm)): voice file \(path) could not be removed (\(error.reason)); it stays until it is removed by hand"
        case .soundFileNotPrivate(let alarm, let path, let error):
            "warning: alarm \(Self.id(alarm)): voice file \(path) could not be made private (\(error.reason)); other users may be able to read it"
        }
    }

    private static func id(_ id: UUID) -> String { id.uuidString.lowercased() }
}
