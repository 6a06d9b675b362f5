internal import CALSA
import Foundation

/// The sound devices ALSA knows, as `arecord -l` / `aplay -l` (hardware cards and their devices)
/// and `arecord -L` (named PCMs) list them — keeping only the PCMs that actually open for the
/// direction asked, so every name listed is one `--device` accepts.
package enum SoundDevices {
    package enum Direction: String, Sendable {
        case capture, playback
    }

    /// One device of a card (`hw:CARD,DEVICE`).
    package struct CardDevice: Sendable, Equatable {
        package var device: Int
        package var id: String
        package var name: String
        package var subdevices: Int
    }

    /// A sound card with the devices it has in the direction asked.
    package struct Card: Sendable, Equatable {
        package var index: Int
        package var id: String
        package var name: String
        package var devices: [CardDevice]
        /// Why the card could not be asked about its devices (`Permission denied` for a user
        /// outside the `audio` group); nil when it answered.
        package var problem: String?
    }

    /// A named PCM (`default`, `pulse`, `plughw:CARD=PCH,DEV=0`, one a configuration defines).
    package struct PCM: Sendable, Equatable {
        package var name: String
        package var description: String
    }

    /// How long one PCM may take to open before it is taken as not answering: a `file` PCM
    /// whose infile is a FIFO blocks in `open()` until a writer comes, whatever the mode.
    static let probeTimeout = 1.5

    /// The cards and the PCMs that open in `direction`.
    package static func list(_ direction: Direction) -> (cards: [Card], pcms: [PCM]) {
        calsa_silence_errors()
        return (cards(direction), pcms(direction))
    }

    private static func stream(_ direction: Direction) -> snd_pcm_stream_t {
        direction == .capture ? SND_PCM_STREAM_CAPTURE : SND_PCM_STREAM_PLAYBACK
    }

    /// Cards by `snd_card_next`; each card's devices by `snd_ctl_pcm_next_device`, kept when
    /// `snd_ctl_pcm_info` answers for the direction (as `arecord -l` does).
    private static func cards(_ direction: Direction) -> [Card] {
        var cards: [Card] = []
        var index: Int32 = -1
        var cardInfo: OpaquePointer?
        var pcmInfo: OpaquePointer?
        guard snd_ctl_card_info_malloc(&cardInfo) == 0, snd_pcm_info_malloc(&pcmInfo) == 0 else {
            preconditionFailure("out of memory for two ALSA info records")
        }
        defer { snd_ctl_card_info_free(cardInfo); snd_pcm_info_free(pcmInfo) }
        while snd_card_next(&index) == 0, index >= 0 {
            var control: OpaquePointer?
            let opened = snd_ctl_open(&control, "hw:\(index)", 0)
            guard opened == 0 else {
                cards.append(Card(index: Int(index), id: "", name: "card \(index)", devices: [], problem: String(cString: snd_strerror(opened))))
                continue
            }
            defer { snd_ctl_close(control) }
            let asked = snd_ctl_card_info(control, cardInfo)
            guard asked == 0 else {
                cards.append(Card(index: Int(index), id: "", name: "card \(index)", devices: [], problem: String(cString: snd_strerror(asked))))
                continue
            }
            var card = Card(
                index: Int(index), id: String(cString: snd_ctl_card_info_get_id(cardInfo)),
                name: String(cString: snd_ctl_card_info_get_name(cardInfo)), devices: [], problem: nil)
            var device: Int32 = -1
            while snd_ctl_pcm_next_device(control, &device) == 0, device >= 0 {
                snd_pcm_info_set_device(pcmInfo, UInt32(device))
                snd_pcm_info_set_subdevice(pcmInfo, 0)
                snd_pcm_info_set_stream(pcmInfo, stream(direction))
                guard snd_ctl_pcm_info(control, pcmInfo) == 0 else { continue }
                card.devices.append(
                    CardDevice(
                        device: Int(device), id: String(cString: snd_pcm_info_get_id(pcmInfo)),
                        name: String(cString: snd_pcm_info_get_name(pcmInfo)),
                        subdevices: Int(snd_pcm_info_get_subdevices_count(pcmInfo))))
            }
            if !card.devices.isEmpty { cards.append(card) }
        }
        return cards
    }

    /// PCMs from `snd_device_name_hint` for the direction, kept when `snd_pcm_open` (non-blocking)
    /// succeeds within `probeTimeout`; `default` is always tried, hinted or not. Not thread-safe:
    /// stderr points at /dev/null while the PCMs are tried (the command line calls it once).
    private static func pcms(_ direction: Direction) -> [PCM] {
        var found: [PCM] = []
        var hints: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
        if snd_device_name_hint(-1, "pcm", &hints) >= 0, let hints {
            defer { snd_device_name_free_hint(hints) }
            var cursor = hints
            while let hint = cursor.pointee {
                defer { cursor += 1 }
                func field(_ id: String) -> String? {
                    guard let value = snd_device_name_get_hint(hint, id) else { return nil }
                    defer { free(value) }
                    return String(cString: value)
                }
                let io = field("IOID")
                guard let name = field("NAME"), io == nil || io == (direction == .capture ? "Input" : "Output") else { continue }
                found.append(PCM(name: name, description: (field("DESC") ?? "").replacingOccurrences(of: "\n", with: " — ")))
            }
        }
        if !found.contains(where: { $0.name == "default" }) { found.insert(PCM(name: "default", description: "The default sound device"), at: 0) }
        // Some plugins' client libraries (JACK's) print to stderr when their server is absent.
        return QuietStandardError.run { found.filter { opens($0.name, direction) } }
    }

    /// Whether `name` opens, tried on its own thread: one that does not answer in time is left
    /// blocked there (a FIFO with no writer) and counted as not opening.
    private static func opens(_ name: String, _ direction: Direction) -> Bool {
        let answer = ProbeAnswer()
        let streamValue = stream(direction)
        Thread.detachNewThread {
            var pcm: OpaquePointer?
            let opened = snd_pcm_open(&pcm, name, streamValue, SND_PCM_NONBLOCK) == 0
            if opened { snd_pcm_close(pcm) }
            answer.give(opened)
        }
        return answer.wait(seconds: probeTimeout) ?? false
    }

    /// One probe's answer, handed from its thread.
    private final class ProbeAnswer: @unchecked Sendable {
        private let condition = NSCondition()
        private var value: Bool?

        func give(_ opened: Bool) {
            condition.lock()
            value = opened
            condition.signal()
            condition.unlock()
        }

        func wait(seconds: Double) -> Bool? {
            let deadline = Date().addingTimeInterval(seconds)
            condition.lock()
            defer { condition.unlock() }
            while value == nil, condition.wait(until: deadline) {}
            return value
        }
    }
}
