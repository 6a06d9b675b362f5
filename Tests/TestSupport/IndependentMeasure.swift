import Foundation

/// What ffprobe says of a file's first audio stream and container.
public struct ProbeInfo: Sendable {
    public var formatName: String
    public var codecName: String
    public var profile: String?
    public var sampleRate: Int
    public var channels: Int
    /// The container's duration in seconds (0 when it states none).
    public var duration: Double
}

/// What the Python helper (pyloudnorm, scipy) measures of a decoded file.
public struct PythonMeasurement: Decodable, Sendable {
    public var integrated: Double
    public var truePeak: Double
    public var samplePeak: Double
    public var rms: Double
    public var samples: Int
    public var rate: Int
    public var channels: Int
    public var duration: Double { Double(samples) / Double(rate) }
}

/// Measurements by tools other than VoiceAlarm: ffprobe, the ffmpeg CLI, pyloudnorm.
public enum IndependentMeasure {
    public static func probe(_ path: String) async throws -> ProbeInfo {
        let result = try await ProcessRunner.run(
            "ffprobe",
            [
                "-v", "error", "-select_streams", "a:0", "-show_entries",
                "stream=codec_name,profile,sample_rate,channels:format=format_name,duration", "-of", "json", path,
            ])
        guard result.status == 0,
            let json = try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any],
            let stream = (json["streams"] as? [[String: Any]])?.first,
            let format = json["format"] as? [String: Any]
        else {
            throw TestSupportError("ffprobe could not read \(path): \(result.stderr)")
        }
        return ProbeInfo(
            formatName: format["format_name"] as? String ?? "",
            codecName: stream["codec_name"] as? String ?? "",
            profile: stream["profile"] as? String,
            sampleRate: Int(stream["sample_rate"] as? String ?? "") ?? 0,
            channels: stream["channels"] as? Int ?? 0,
            duration: Double(format["duration"] as? String ?? "") ?? 0)
    }

    /// Mono 16-bit samples as the ffmpeg CLI decodes the file (at its own rate unless `rate` is given).
    public static func decodedSamples(_ path: String, rate: Int? = nil) async throws -> [Int16] {
        var arguments = ["-v", "error", "-i", path, "-ac", "1"]
        if let rate { arguments += ["-ar", "\(rate)"] }
        let result = try await ProcessRunner.run("ffmpeg", arguments + ["-f", "s16le", "-"])
        guard result.status == 0 else { throw TestSupportError("ffmpeg could not decode \(path): \(result.stderr)") }
        return result.stdoutData.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    /// Loudness, true peak (4x oversampled) and length by pyloudnorm and scipy.
    public static func python(_ path: String) async throws -> PythonMeasurement {
        let result = try await WarmPython.run("\(ProjectPaths.root)/Tests/Support/measure.py", [path])
        guard result.status == 0 else { throw TestSupportError("measure.py failed on \(path): \(result.stderr)") }
        return try JSONDecoder().decode(PythonMeasurement.self, from: result.stdoutData)
    }

    /// Whether ffprobe's trace shows the `moov` box before `mdat` (faststart).
    public static func moovBeforeMdat(_ path: String) async throws -> Bool {
        let trace = try await ProcessRunner.run("ffprobe", ["-v", "trace", path]).stderr
        guard let moov = trace.range(of: "type:'moov'"), let mdat = trace.range(of: "type:'mdat'") else {
            throw TestSupportError("ffprobe's trace of \(path) shows no moov/mdat")
        }
        return moov.lowerBound < mdat.lowerBound
    }

    /// Root mean square of a stretch of samples, in dBFS.
    public static func rmsDB(_ samples: ArraySlice<Int16>) -> Double {
        guard !samples.isEmpty else { return -.infinity }
        let sum = samples.reduce(0.0) { $0 + Double($1) * Double($1) }
        return 10 * log10(sum / Double(samples.count) / (32768.0 * 32768.0))
    }

    /// How alike `recording` is to the best-matching stretch of `source` played round and round
    /// (a browser's fake microphone starts anywhere in its file), by `similarity.py … loop`.
    public static func similarity(_ recording: String, toLooped source: String, seconds: Double) async throws -> Double {
        let result = try await WarmPython.run("\(ProjectPaths.root)/Tests/Support/similarity.py", [recording, source, "\(seconds)", "loop"])
        guard result.status == 0 else { throw TestSupportError("similarity.py failed: \(result.stderr)") }
        let json = try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Double]
        guard let value = json?["similarity"] else { throw TestSupportError("similarity.py printed no similarity") }
        return value
    }

    /// How alike two recordings are, by `similarity.py` (ffmpeg and scipy, not VoiceAlarm).
    public static func similarity(_ a: String, _ b: String, seconds: Double = 30) async throws -> Double {
        let result = try await WarmPython.run("\(ProjectPaths.root)/Tests/Support/similarity.py", [a, b, "\(seconds)"])
        guard result.status == 0 else { throw TestSupportError("similarity.py failed: \(result.stderr)") }
        let json = try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Double]
        guard let value = json?["similarity"] else { throw TestSupportError("similarity.py printed no similarity") }
        return value
    }
}
