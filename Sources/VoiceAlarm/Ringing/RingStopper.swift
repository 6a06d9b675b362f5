import Foundation

/// `voicealarm stop`: stops every ring of ours, then forgets the pending snoozes of the rings it
/// stopped (or, when nothing was ringing, every pending snooze), so a stopped alarm does not
/// ring again minutes later.
///
/// Only the data dir is needed to stop the rings: a degraded ring (a damaged, locked or read-only
/// library) is stopped all the same. The library is opened only to cancel snoozes, and only
/// where one exists (none is made); when it cannot be, the rings stay stopped and the result
/// says why no snooze was cancelled.
///
/// ```swift
/// let stopped = RingStopper.stop(in: location, open: { try LibraryOpener.open(location).0 })
/// ```
package enum RingStopper {
    /// What `stop` did.
    package struct Stopped: Sendable, Equatable {
        /// The rings stopped: alarm ids, or a snoozed ring's id.
        package var rings: [UUID]
        /// The alarms whose pending snooze was cancelled.
        package var snoozesCancelled: [UUID]
        /// Why pending snoozes could not be cancelled (the library did not open, or refused the
        /// change), or nil when they were, or there was no library.
        package var snoozeProblem: String?
    }

    /// Stops every ring of the library at `location`, then cancels the snoozes they leave pending.
    /// - Parameters:
    ///   - open: opens the library, called only when one exists at `location`.
    package static func stop(in location: LibraryLocation, open: () throws -> AlarmService) -> Stopped {
        let rings = RingingRegistry(dataDirectory: location.dataDirectory).stopAll()
        var stopped = Stopped(rings: rings, snoozesCancelled: [], snoozeProblem: nil)
        guard location.hasLibrary else { return stopped }
        do {
            stopped.snoozesCancelled = try open().snoozes.cancel(after: rings)
        } catch {
            stopped.snoozeProblem = "\(error)"
        }
        return stopped
    }
}
