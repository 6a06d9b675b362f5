internal import CALSA
import Foundation

/// The sound devices ALSA knows, as `arecord -l` / `aplay -l` (hardware cards and their devices)
/// and `arecord -L` (named PCMs) list them — keeping only the PCMs that actually open for the
/// direction asked, so every name listed is one `--device` accepts.
public enum SoundDevices {
    public enum Direction: String, Sendable {
        case capture, playback
    }

    /// One device of a card (`hw:CARD,DEVICE`).
    public struct CardDevice: Sendable, Equatable {
        public var device: Int
        public var id: String
        public var name: String
        public var subdevices: Int
    }

    /// A sound card with the devices it has in the direction asked.
    public struct Card: Sendable, Equatable {
        public var index: Int
        public var id: String
        public var name: String
        public var devices: [CardDevice]
    }

    /// A named PCM (`default`, `pulse`, `plughw:CARD=PCH,DEV=0`, one a configuration defines).
    public struct PCM: Sendable, Equatable {
        public var name: String
        public var description: String
    }

    /// The cards and the PCMs that open in `direction`.
    public static func list(_ direction: Direction) -> (cards: [Card], pcms: [PCM]) {
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
        guard snd_ctl_card_info_malloc(&cardInfo) == 0, snd_pcm_info_malloc(&pcmInfo) == 0 else { return [] }
        defer { snd_ctl_card_info_free(cardInfo); snd_pcm_info_free(pcmInfo) }
        while snd_card_next(&index) == 0, index >= 0 {
            var control: OpaquePointer?
            guard snd_ctl_open(&control, "hw:\(index)", 0) == 0 else { continue }
            defer { snd_ctl_close(control) }
            guard snd_ctl_card_info(control, cardInfo) == 0 else { continue }
            var card = Card(index: Int(index), id: String(cString: snd_ctl_card_info_get_id(cardInfo)),
                            name: String(cString: snd_ctl_card_info_get_name(cardInfo)), devices: [])
            var device: Int32 = -1
            while snd_ctl_pcm_next_device(control, &device) == 0, device >= 0 {
                snd_pcm_info_set_device(pcmInfo, UInt32(device))
                snd_pcm_info_set_subdevice(pcmInfo, 0)
                snd_pcm_info_set_stream(pcmInfo, stream(direction))
                guard snd_ctl_pcm_info(control, pcmInfo) == 0 else { continue }
                card.devices.append(CardDevice(device: Int(device), id: String(cString: snd_pcm_info_get_id(pcmInfo)),
                                               name: String(cString: snd_pcm_info_get_name(pcmInfo)),
                                               subdevices: Int(snd_pcm_info_get_subdevices_count(pcmInfo))))
            }
            if !card.devices.isEmpty { cards.append(card) }
        }
        return cards
    }

    /// PCMs from `snd_device_name_hint` for the direction, kept when `snd_pcm_open` (non-blocking)
    /// succeeds; `default` is always tried, hinted or not.
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
        // Some plugins' client libraries (JACK's) print to stderr when their server is absent;
        // a listing must not, so stderr points at /dev/null while the PCMs are tried.
        let saved = dup(STDERR_FILENO)
        let null = open("/dev/null", O_WRONLY)
        if saved >= 0, null >= 0 { dup2(null, STDERR_FILENO) }
        defer {
            if saved >= 0 { dup2(saved, STDERR_FILENO); close(saved) }
            if null >= 0 { close(null) }
        }
        return found.filter { opens($0.name, direction) }
    }

    private static func opens(_ name: String, _ direction: Direction) -> Bool {
        var pcm: OpaquePointer?
        guard snd_pcm_open(&pcm, name, stream(direction), SND_PCM_NONBLOCK) == 0 else { return false }
        snd_pcm_close(pcm)
        return true
    }
}
