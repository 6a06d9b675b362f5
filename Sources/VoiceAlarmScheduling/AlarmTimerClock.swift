internal import CLinux
import Foundation
import VoiceAlarmCore
import VoiceAlarmFiles

/// The daemon's clock. A sleep waits on three Linux timer file descriptors: the alarm's own
/// minute on `CLOCK_REALTIME_ALARM`, which wakes a suspended machine, when the process may use it
/// (it needs `CAP_WAKE_ALARM`: `setcap cap_wake_alarm+ep` on the installed binary grants it; else
/// that timer is a plain `CLOCK_REALTIME` one and the alarm rings on resume); the daemon's routine
/// re-read on a `CLOCK_REALTIME` timer that never wakes the machine, so a suspended laptop stays
/// asleep until the alarm; and a `TFD_TIMER_CANCEL_ON_SET` timer that ends the sleep at once when
/// anyone sets the wall clock (an NTP step, `date -s`), so the daemon looks again.
///
/// One thread serves every sleep (one at a time: the daemon's loop); cancellation wakes it at once.
/// The corresponding C functions are `timerfd_create`, `timerfd_settime` and `poll`.
///
/// ```swift
/// let clock = AlarmTimerClock()
/// try await clock.sleep(until: nextAlarm)   // returns at the alarm, on a clock change, or when cancelled
/// ```
package final class AlarmTimerClock: WallClock, Sendable {
    /// Which kernel clock the sleeps use.
    package enum Kind: String, Sendable, Codable {
        /// Wakes a suspended machine.
        case realtimeAlarm = "CLOCK_REALTIME_ALARM"
        /// Rings on resume, not before.
        case realtime = "CLOCK_REALTIME"
    }

    package let kind: Kind
    /// Why the sleeps cannot wake a suspended machine, when they cannot.
    package let cannotWake: WakeProblem?
    /// Armed for the alarm itself (wakes the machine when `kind` is `realtimeAlarm`).
    private let timer: Int32
    /// Armed for the routine re-read; never wakes the machine.
    private let poll: Int32
    private let clockSets: Int32
    private let wake: Int32
    private let state = Locked<State>(State())

    private struct State {
        var deadline: Date?
        var alarm: Date?
        var continuation: CheckedContinuation<Void, Never>?
        var cancelled = false
        var started = false
    }

    /// - Parameter executable: the binary to name in the `setcap` line when the alarm clock is refused.
    package init(executable: String = CommandLine.arguments[0]) throws {
        var kind = Kind.realtimeAlarm
        var cannotWake: WakeProblem?
        var timer = clinux_timer_create(clinux_clock_realtime_alarm())
        if timer < 0 {
            let failure = SystemError.capture("timerfd_create", path: "CLOCK_REALTIME_ALARM")
            cannotWake = failure.code == EPERM ? .needsCapability(executable: executable) : .clockUnavailable(failure.reason)
            kind = .realtime
            timer = try SystemError.check("timerfd_create", path: "CLOCK_REALTIME") { clinux_timer_create(clinux_clock_realtime()) }
        }
        let others = [clinux_timer_create(clinux_clock_realtime()), clinux_timer_create(clinux_clock_realtime()), clinux_eventfd()]
        guard others.allSatisfy({ $0 >= 0 }), clinux_timer_watch_clock_sets(others[1]) == 0 else {
            let failure = SystemError.capture("timerfd_create", path: "CLOCK_REALTIME")
            for fd in [timer] + others where fd >= 0 { close(fd) }
            throw failure
        }
        self.kind = kind
        self.cannotWake = cannotWake
        self.timer = timer
        (poll, clockSets, wake) = (others[0], others[1], others[2])
    }

    deinit {
        for fd in [timer, poll, clockSets, wake] { close(fd) }
    }

    package func now() -> Date { Date() }

    /// Returns at `deadline`, when the wall clock is set, or when the task is cancelled.
    package func sleep(until deadline: Date) async throws { try await sleep(until: deadline, alarmAt: nil) }

    /// Returns at `deadline` (or `alarm`, when earlier), when the wall clock is set, or when the
    /// task is cancelled; only `alarm` may wake a suspended machine.
    package func sleep(until deadline: Date, alarmAt alarm: Date?) async throws {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let start = state.withLock { state -> Bool in
                    precondition(state.continuation == nil, "one sleep at a time on the daemon's clock")
                    state.deadline = deadline
                    state.alarm = alarm
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
            let (deadline, alarm, cancelled) = state.withLock { ($0.deadline, $0.alarm, $0.cancelled) }
            if cancelled || deadline == nil {
                if cancelled { finish() }
                _ = clinux_wait3(wake, wake, wake, -1)
                _ = clinux_drain(wake)
                continue
            }
            _ = clinux_timer_arm_relative(poll, deadline!.timeIntervalSinceNow)
            if let alarm { _ = clinux_timer_arm_relative(timer, alarm.timeIntervalSinceNow) } else { _ = clinux_timer_disarm(timer) }
            let ready = clinux_wait4(timer, poll, clockSets, wake, -1)
            guard ready > 0 else { continue }  // EINTR: look again
            var ended = false
            if ready & 1 != 0 { _ = clinux_drain(timer); ended = true }
            if ready & 2 != 0 { _ = clinux_drain(poll); ended = true }
            if ready & 4 != 0 {
                _ = clinux_drain(clockSets)  // ECANCELED: the wall clock was set
                _ = clinux_timer_watch_clock_sets(clockSets)
                ended = true
            }
            if ready & 8 != 0 { _ = clinux_drain(wake) }
            if ended {
                _ = clinux_timer_disarm(timer)
                _ = clinux_timer_disarm(poll)
                finish()
            }
        }
    }

    /// Ends the current sleep.
    private func finish() {
        let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
            defer { state.continuation = nil; state.deadline = nil; state.alarm = nil }
            return state.continuation
        }
        continuation?.resume()
    }
}
