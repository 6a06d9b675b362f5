import Foundation

/// How much of a sweep a run covers. `make test` runs one real case of each component (a shard
/// engine, a SIGKILL point, a format); `make test-full` (`VOICEALARM_TEST_FULL=1`) runs every case
/// of the exhaustive sweeps too, before an issue is resolved.
public enum TestScope {
    /// Whether this run covers the exhaustive sweeps.
    public static var full: Bool { ProcessInfo.processInfo.environment["VOICEALARM_TEST_FULL"] == "1" }

    /// `all` in a full run; otherwise only `quick`, the cases `make test` keeps.
    public static func cases<T>(_ all: [T], quick: [T]) -> [T] { full ? all : quick }

    /// `all` in a full run; otherwise `quick`: how many rounds a sweep makes (mutations of a fuzz).
    public static func count(_ all: Int, quick: Int) -> Int { full ? all : quick }
}
