// What Swift's Glibc module does not export: Linux timer file descriptors, for the daemon's
// sleep, and glibc's allocator settings. Every helper is prefixed `clinux_` and says why it exists.
#ifndef CLINUX_SHIM_H
#define CLINUX_SHIM_H

#include <errno.h>
#include <malloc.h>
#include <poll.h>
#include <stdint.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

/// CLOCK_REALTIME_ALARM: a wall-clock timer that wakes a suspended machine (needs CAP_WAKE_ALARM).
static inline int clinux_clock_realtime_alarm(void) { return CLOCK_REALTIME_ALARM; }
static inline int clinux_clock_realtime(void) { return CLOCK_REALTIME; }

/// timerfd_create with close-on-exec; -1 and errno on failure.
static inline int clinux_timer_create(int clock) { return timerfd_create(clock, TFD_CLOEXEC | TFD_NONBLOCK); }

/// Arms `fd` to fire once, `seconds` from now (0 disarms; a tiny value fires at once).
static inline int clinux_timer_arm_relative(int fd, double seconds) {
    struct itimerspec spec = {0};
    if (seconds <= 0) seconds = 1e-6;
    spec.it_value.tv_sec = (time_t)seconds;
    spec.it_value.tv_nsec = (long)((seconds - (double)(time_t)seconds) * 1e9);
    if (spec.it_value.tv_sec == 0 && spec.it_value.tv_nsec == 0) spec.it_value.tv_nsec = 1000;
    return timerfd_settime(fd, 0, &spec, NULL);
}

/// Arms `fd` (a CLOCK_REALTIME timer) at a far absolute time with TFD_TIMER_CANCEL_ON_SET: a read
/// then fails with ECANCELED as soon as anyone sets the wall clock (an NTP step, `date -s`).
static inline int clinux_timer_watch_clock_sets(int fd) {
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    struct itimerspec spec = {0};
    spec.it_value.tv_sec = now.tv_sec + 10L * 365 * 24 * 3600;
    return timerfd_settime(fd, TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET, &spec, NULL);
}

/// Disarms `fd`.
static inline int clinux_timer_disarm(int fd) {
    struct itimerspec spec = {0};
    return timerfd_settime(fd, 0, &spec, NULL);
}

/// Waits until one of four descriptors is readable (or `timeout_ms`, -1 for none); returns a bit
/// mask of the readable ones (1, 2, 4, 8), 0 on timeout, -1 and errno on failure (EINTR included).
static inline int clinux_wait4(int a, int b, int c, int d, int timeout_ms) {
    struct pollfd fds[4] = {{a, POLLIN, 0}, {b, POLLIN, 0}, {c, POLLIN, 0}, {d, POLLIN, 0}};
    int rc = poll(fds, 4, timeout_ms);
    if (rc <= 0) return rc;
    return (fds[0].revents ? 1 : 0) | (fds[1].revents ? 2 : 0) | (fds[2].revents ? 4 : 0) | (fds[3].revents ? 8 : 0);
}

/// Waits until one of three descriptors is readable (or `timeout_ms`, -1 for none); returns a
/// bit mask of the readable ones (1, 2, 4), 0 on timeout, -1 and errno on failure.
static inline int clinux_wait3(int a, int b, int c, int timeout_ms) {
    struct pollfd fds[3] = {{a, POLLIN, 0}, {b, POLLIN, 0}, {c, POLLIN, 0}};
    int rc = poll(fds, 3, timeout_ms);
    if (rc <= 0) return rc;
    return (fds[0].revents ? 1 : 0) | (fds[1].revents ? 2 : 0) | (fds[2].revents ? 4 : 0);
}

/// Reads a timer's expiry count (or an eventfd's counter): 0 and errno (EAGAIN, ECANCELED) when none.
static inline uint64_t clinux_drain(int fd) {
    uint64_t value = 0;
    if (read(fd, &value, sizeof value) != sizeof value) return 0;
    return value;
}

/// Wakes a waiter through an eventfd.
static inline void clinux_signal(int fd) { uint64_t one = 1; (void)!write(fd, &one, sizeof one); }

static inline int clinux_eventfd(void) { return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK); }

/// glibc's mallopt thresholds (malloc.h, which the Glibc module leaves out): large allocations
/// mapped on their own and unmapped when freed, at `bytes` and up, without glibc raising it.
static inline void clinux_fix_mmap_threshold(int bytes) {
    mallopt(M_MMAP_THRESHOLD, bytes);
    mallopt(M_TRIM_THRESHOLD, bytes);
}

/// At most `count` heaps (arenas) for every thread of the process, from now on.
static inline void clinux_limit_arenas(int count) {
    mallopt(M_ARENA_MAX, count);
}

#endif
