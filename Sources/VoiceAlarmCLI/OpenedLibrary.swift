import VoiceAlarm
import VoiceAlarmDocuments

/// The library one command line opened, opened at most once: what the command changed and
/// what is left to do once it succeeded (`LibraryAccess.finish`) act on the same service.
final class OpenedLibrary {
    private(set) var opened: AlarmService?

    /// The service, opened by `open` the first time it is asked for.
    func service(_ open: () throws -> AlarmService) throws -> AlarmService {
        if let opened { return opened }
        let service = try open()
        opened = service
        return service
    }
}
