import Foundation

/// libfaketime's `faketime` wrapper, safe to start many times in a run.
///
/// The wrapper keeps a semaphore and shared memory named after its own pid in `/dev/shm`
/// (`sem.faketime_sem_PID`, `faketime_shm_PID`), shared with the processes it starts, and removes
/// them when it ends — unless it is killed first, as tests kill daemons. Pids come round again
/// (32,768 of them here), and a later wrapper that gets a leftover's pid fails
/// ("faketime: sem_open: File exists"): a test that fails only on a busy machine. So the leftovers
/// of wrappers no longer running are removed before each start.
public enum FakeClock {
    /// The wrapper's path, once the leftovers of ended wrappers are gone.
    public static var wrapper: String {
        removeLeftovers()
        return "/usr/bin/faketime"
    }

    /// Removes `/dev/shm`'s faketime files whose pid no process holds now.
    public static func removeLeftovers() {
        let folder = "/dev/shm"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            guard let pid = pid(in: name), kill(pid, 0) != 0, errno == ESRCH else { continue }
            unlink("\(folder)/\(name)")  // another test may have removed it first: nothing to do then
        }
    }

    /// The pid a faketime file is named after, or nil for any other file.
    static func pid(in name: String) -> pid_t? {
        for prefix in ["sem.faketime_sem_", "faketime_shm_"] where name.hasPrefix(prefix) {
            return pid_t(name.dropFirst(prefix.count))
        }
        return nil
    }
}
