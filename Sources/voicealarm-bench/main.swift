// The encoder-only bounds for `make bench`: the encoder and settings VoiceAlarm uses, on the
// ringtones' own samples (decoded before the clock starts), nothing else.
// Usage: voicealarm-bench FORMAT LIST OUT_DIR JOBS [SHARD/SHARDS]
//   LIST holds one audio file per line: each is decoded to mono float at 44.1 kHz and encoded
//   to OUT_DIR/<n>.FORMAT. JOBS threads share the work (the in-process bound); with SHARD/SHARDS
//   this process takes every SHARDS-th file from the SHARD-th (several processes at once, one
//   per core, make the loaded-machine bound). Prints the seconds spent encoding.
import Foundation
import Synchronization
import VoiceAlarmAudio
import VoiceAlarmCore

let arguments = CommandLine.arguments
func usage() -> Never {
    FileHandle.standardError.write(Data("usage: voicealarm-bench m4a|caf|wav|aiff|mp3 LIST OUT JOBS [SHARD/SHARDS]\n".utf8))
    exit(64)
}
guard (5...6).contains(arguments.count), let format = RingtoneFormat(rawValue: arguments[1]), let jobs = Int(arguments[4]), jobs > 0 else { usage() }
var shard = (index: 1, count: 1)
if arguments.count == 6 {
    let parts = arguments[5].split(separator: "/").compactMap { Int($0) }
    guard parts.count == 2, parts[1] >= 1, (1...parts[1]).contains(parts[0]) else { usage() }
    shard = (parts[0], parts[1])
}
let settings = RenderSettings(format: format)
let files = try String(contentsOfFile: arguments[2], encoding: .utf8).split(separator: "\n").map(String.init)
let mine = files.enumerated().filter { $0.offset % shard.count == shard.index - 1 }
let pcm: [(index: Int, samples: [Float])] = try mine.map { ($0.offset, try AudioDecoder(path: $0.element, sampleRate: settings.sampleRate).readAll()) }
let encoder = RingtoneEncoder(settings: settings)
let outDir = arguments[3]
// Processes started together wait for the same moment (BENCH_START_AT, seconds since 1970)
// once their samples are decoded, so their encoders run at once.
if let at = ProcessInfo.processInfo.environment["BENCH_START_AT"].flatMap(Double.init) {
    let wait = at - Date().timeIntervalSince1970
    if wait > 0 { Thread.sleep(forTimeInterval: wait) }
}
let start = Date()
let next = Atomic<Int>(0)
DispatchQueue.concurrentPerform(iterations: jobs) { _ in
    while true {
        let index = next.add(1, ordering: .relaxed).oldValue
        guard index < pcm.count else { return }
        do {
            try encoder.write(pcm[index].samples, to: "\(outDir)/\(pcm[index].index).\(format.fileExtension)")
        } catch {
            FileHandle.standardError.write(Data("voicealarm-bench: \(error)\n".utf8))
            exit(1)
        }
    }
}
print(String(format: "%.3f", Date().timeIntervalSince(start)))
