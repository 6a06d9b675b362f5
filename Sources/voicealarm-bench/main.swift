// The encoder-only bound for `make bench`: the same encoder and settings VoiceAlarm uses,
// in-process, on PCM already in memory, to the given output durations, all cores busy.
// Usage: voicealarm-bench FORMAT SOURCE DURATIONS_FILE OUT_DIR JOBS
import Foundation
import Synchronization
import VoiceAlarmAudio
import VoiceAlarmCore

let arguments = CommandLine.arguments
guard arguments.count == 6, let format = RingtoneFormat(rawValue: arguments[1]), let jobs = Int(arguments[5]) else {
    FileHandle.standardError.write(Data("usage: voicealarm-bench m4a|caf SOURCE DURATIONS OUT JOBS\n".utf8))
    exit(64)
}
let settings = RenderSettings(format: format)
let source = try AudioDecoder(path: arguments[2], sampleRate: settings.sampleRate).readAll()
let durations = try String(contentsOfFile: arguments[3], encoding: .utf8).split(separator: "\n").compactMap { Double($0) }
let encoder = RingtoneEncoder(settings: settings)
let pcm: [[Float]] = durations.map { seconds in
    let count = Int(seconds * Double(settings.sampleRate))
    return (0..<count).map { source[$0 % source.count] }
}
let start = Date()
let next = Atomic<Int>(0)
let outDir = arguments[4]
DispatchQueue.concurrentPerform(iterations: jobs) { _ in
    while true {
        let index = next.add(1, ordering: .relaxed).oldValue
        guard index < pcm.count else { return }
        try! encoder.write(pcm[index], to: "\(outDir)/\(index).\(format.fileExtension)")
    }
}
print(String(format: "%.3f", Date().timeIntervalSince(start)))
