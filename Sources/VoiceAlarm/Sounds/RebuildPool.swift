import Foundation
import VoiceAlarmCore
import VoiceAlarmStore

/// Builds several alarms' sounds at once: `jobs` workers (a `WorkerPool`), each on its own thread
/// with a `SoundBuilder` of its own (its own store connection, from `opener`), take the alarms one
/// at a time until none is left. Each build follows the same rules as one by one (`SoundBuilder.build`).
///
/// - One alarm, one job, or no opener: built inline on the caller's builder; nothing is opened.
/// - A worker that cannot open its builder takes no alarm, and the others take its share; an
///   alarm no worker took (none could open) is built on the caller's builder afterwards. Every
///   alarm ends with a decided sound.
/// - Warnings reach the caller's builder's sink whole, one line at a time.
///
/// Scheduling is not its job: the caller schedules once `build` returns, on its own thread
/// (the embedded scheduler's list is not shared between threads).
///
/// ```swift
/// let pool = RebuildPool(jobs: 4, opener: service.connector)
/// let outcomes = pool.build(alarms, settings: try service.builder.settings(), on: service.builder)
/// ```
struct RebuildPool: Sendable {
    /// How many alarms are built at once (at least 1).
    let jobs: Int
    /// Where workers get their builders; nil builds one alarm at a time on the caller's.
    let opener: (any SoundBuilderOpening)?

    init(jobs: Int, opener: (any SoundBuilderOpening)?) {
        precondition(jobs > 0, "at least one job")
        self.jobs = jobs
        self.opener = opener
    }

    /// The same pool with another number of jobs (nil keeps this one's).
    func with(jobs: Int?) -> RebuildPool { RebuildPool(jobs: jobs ?? self.jobs, opener: opener) }

    /// Builds each alarm's sound with `settings`. Never throws.
    /// - Parameter builder: the caller's own, for one alarm alone and for alarms no worker took.
    /// - Returns: each alarm's outcome, in the order of `alarms`.
    func build(_ alarms: [StoredAlarm], settings: RenderSettings, on builder: SoundBuilder) -> [SoundBuilder.Outcome] {
        let workers = min(jobs, alarms.count)
        guard workers > 1, let opener else { return alarms.map { builder.build($0, settings: settings) } }
        let results = RebuildResults(count: alarms.count)
        let warnings = SerialWarnings(builder.warn)
        WorkerPool(workers: workers).run(
            alarms.count,
            open: { _ -> SoundBuilder? in
                do {
                    let own = try opener.openBuilder(warn: { warnings.say($0) })
                    own.store.writesBackup = false  // the caller writes it once, from the whole library
                    return own
                } catch {
                    // The others take its share; the caller builds what none could take.
                    warnings.say(.rebuildWorkerUnavailable(error: WarningCause(error)))
                    return nil
                }
            },
            work: { own, index in
                // Read again now: the alarm may have changed (or gone) since the list was read.
                let latest: StoredAlarm?
                do { latest = try own.store.alarm(alarms[index].alarm.id) } catch { latest = alarms[index] }
                results.record(latest.map { own.build($0, settings: settings) } ?? .unchanged, at: index)
            },
            close: { own in
                if own.store.changeCount > 0 { results.noteChanged() }
            })
        if results.changed { builder.store.noteChangedElsewhere() }
        // Alarms no worker took (none could open the library) are built here, one by one.
        return results.outcomes.enumerated().map { index, outcome in outcome ?? builder.build(alarms[index], settings: settings) }
    }
}
