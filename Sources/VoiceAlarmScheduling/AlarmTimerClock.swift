internal import CLinux
import Foundation
import Synchronization
import VoiceAlarmFiles

/// The daemon's clock: it sleeps on a Linux timer file descriptor on `CLOCK_REALTIME_ALARM`,
/// which wakes a suspended machine at the alarm's minute, when the process may use it (it needs
/// `CAP_WAKE_ALARM`: `setcap cap_wake_alarm+ep` on the installed binary grants it); otherwise on
/// `CLOCK_REALTIME`, which rings on resume instead. A second timer armed with
/// `TFD_TIMER_CANCEL_ON_SET` wakes the sleep at once when anyone sets the wall clock (an NTP
/// step, `date -s`, a new time zone), so the daemon looks again instead of finding out later.
///
/// One thread serves every sleep (one at a time: the daemon's loop); cancellation wakes it at once.
/// The corresponding C functions are `timerfd_create`, `timerfd_settime` and `poll`.
///
/// ```swift
/// let clock = AlarmTimerClock()
/// try await clock.sleep(until: nextAlarm)   // returns at the alarm, on a clock change, or when cancelled
/// ```
public final class AlarmTimerClock: WallClock, Sendable {
    /// Which kernel clock the sleeps use.
    public enum Kind: String, Sendable, Codable {
        /// Wakes a suspended machine.
        case realtimeAlarm = "CLOCK_REALTIME_ALARM"
        /// Rings on resume, not before.
        case realtime = "CLOCK_REALTIME"
    }

    public let kind: Kind
    /// Why the sleeps cannot wake a suspended machine, when they cannot.
    public let cannotWake: String?
    private let timer: Int32
    private let clockSets: Int32
    private let wake: Int32
    private let state = Mutex<State>(State())

    private struct State {
        var deadline: Date?
        var continuation: CheckedContinuation<Void, Never>?
        var cancelled = false
        var started = false
    }

    /// - Parameter executable: the binary to name in the `setcap` line when the alarm clock is refused.
    public init(executable: String = CommandLine.arguments[0]) throws {
        var kind = Kind.realtimeAlarm
        var cannotWake: String?
        var timer = clinux_timer_create(clinux_clock_realtime_alarm())
        if timer < 0 {
            let failure = SystemError.capture("timerfd_create", path: "CLOCK_REALTIME_ALARM")
            cannotWake = failure.code == EPERM
                ? "this process may not use CLOCK_REALTIME_ALARM (it needs CAP_WAKE_ALARM): sudo setcap cap_wake_alarm+ep \(executable)"
                : "CLOCK_REALTIME_ALARM is not available here (\(failure.reason))"
            kind = .realtime
            timer = try SystemError.check("timerfd_create", path: "CLOCK_REALTIME") { clinux_timer_create(clinux_clock_realtime()) }
        }
        let clockSets = try SystemError.check("timerfd_create", path: "CLOCK_REALTIME") { clinux_timer_create(clinux_clock_realtime()) }
        try SystemError.check("timerfd_settime", path: "CLOCK_REALTIME") { clinux_timer_watch_clock_sets(clockSets) }
        self.kind = kind
        self.cannotWake = cannotWake
        self.timer = timer
        self.clockSets = clockSets
        wake = try SystemError.check("eventfd", path: "eventfd") { clinux_eventfd() }
    }

    deinit {
        close(timer)
        close(clockSets)
        close(wake)
    }

    public func now() -> Date { Date() }

    /// Returns at `deadline`, when the wall clock is set, or when the task is cancelled.
    public func sleep(until deadline: Date) async throws {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let start = state.withLock { state -> Bool in
                    precondition(state.continuation == nil, "one sleep at a time on the daemon's clock")
                    state.deadline = deadline
                    state.continuation = continuation
                    defer { state.started = true }
                    return !state.started
                }
                if start { Thread.detachNewThread { self.serve() } }
                clinux_signal(wake)
            }
        } onCancel: {
            state.withLock { $0.cancelled = true }
            clinux_signal(wake)
        }
        state.withLock { $0.cancelled = false }
        try Task.checkCancellation()
    }

    /// The serving thread: arm the timer for the current sleep and wait for it, a clock change,
    /// or a wake-up (a new sleep, a cancellation).
    private func serve() {
        while true {
            let (deadline, cancelled) = state.withLock { ($0.deadline, $0.cancelled) }
            if cancelled || deadline == nil {
                if cancelled { finish() }
                _ = clinux_wait3(wake, wake, wake, -1)
                _ = clinux_drain(wake)
                continue
            }
            _ = clinux_timer_arm_relative(timer, deadline!.timeIntervalSinceNow)
            let ready = clinux_wait3(timer, clockSets, wake, -1)
            if ready & 1 != 0 { _ = clinux_drain(timer); finish() }
            if ready & 2 != 0 {
                _ = clinux_drain(clockSets)                  // ECANCELED: the wall clock was set
                _ = clinux_timer_watch_clock_sets(clockSets)
                finish()
            }
            if ready & 4 != 0 { _ = clinux_drain(wake) }
        }
    }

    /// Ends the current sleep.
    private func finish() {
        let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
            defer { state.continuation = nil; state.deadline = nil }
            return state.continuation
        }
        continuation?.resume()
    }
}
