import Foundation

/// An ALSA configuration for tests, with no sound card: `default` and `speaker` are `type file`
/// PCMs that write what is played into WAV files (through the real libasound plugin layer);
/// `slow` writes raw samples into a named pipe, so a test paces playback by reading it.
public struct AlsaTestDevices {
    public let directory: TemporaryDirectory
    public var configPath: String { directory.file("asound.conf") }
    /// What `default` played.
    public var played: String { directory.file("played.wav") }
    /// What `speaker` played.
    public var speaker: String { directory.file("speaker.wav") }
    /// The pipe `slow` plays into.
    public var fifo: String { directory.file("slow.fifo") }

    /// - Parameter brokenDefault: make `default` a device that cannot open, as on a machine with no card.
    public init(brokenDefault: Bool = false) throws {
        directory = TemporaryDirectory("alsa")
        mkfifo(directory.file("slow.fifo"), 0o600)
        let defaultPCM =
            brokenDefault
            ? "pcm.!default { type hw card 99 }"
            : """
            pcm.!default {
                type file
                slave.pcm "nullsink"
                file "\(directory.file("played.wav"))"
                format "wav"
            }
            """
        let config = """
            pcm.nullsink { type null }
            \(defaultPCM)
            pcm.speaker {
                type file
                slave.pcm "nullsink"
                file "\(directory.file("speaker.wav"))"
                format "wav"
            }
            pcm.slow {
                type file
                slave.pcm "nullsink"
                file "\(directory.file("slow.fifo"))"
                format "raw"
            }
            """
        try config.write(toFile: directory.file("asound.conf"), atomically: true, encoding: .utf8)
    }

    /// The environment for a child process that should use these devices.
    public var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["ALSA_CONFIG_PATH"] = configPath
        return environment
    }
}

/// The normalized correlation of two signals over their common length (1 = the same shape).
public func correlation(_ a: [Int16], _ b: [Int16]) -> Double {
    let n = min(a.count, b.count)
    guard n > 0 else { return 0 }
    var dot = 0.0, aa = 0.0, bb = 0.0
    for i in 0..<n {
        let x = Double(a[i]), y = Double(b[i])
        dot += x * y
        aa += x * x
        bb += y * y
    }
    return aa > 0 && bb > 0 ? dot / (aa * bb).squareRoot() : 0
}
