import Foundation

/// Where the package and the things `make test` prepares are.
public enum ProjectPaths {
    /// The package root, found from this file's place in Tests/TestSupport.
    public static let root: String = {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    }()

    /// The voicealarm binary: `$VOICEALARM_BIN`, else the debug build.
    public static var binary: String {
        ProcessInfo.processInfo.environment["VOICEALARM_BIN"] ?? "\(root)/.build/debug/voicealarm"
    }

    /// The test helpers' Python: `$VOICEALARM_TEST_PYTHON`, else the venv `make test` creates.
    public static var python: String {
        ProcessInfo.processInfo.environment["VOICEALARM_TEST_PYTHON"] ?? "\(root)/.build/venv/bin/python"
    }

    public static var sampleAudio: String { "\(root)/SampleAudio" }

    /// Where tests leave what a person should be able to look at afterwards (screenshots):
    /// `.build/test-output`, made on first use.
    public static var testOutput: String {
        let path = "\(root)/.build/test-output"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
