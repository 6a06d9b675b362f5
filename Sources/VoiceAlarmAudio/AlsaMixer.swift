internal import CALSA
import Foundation

/// The playback controls a ring turns up: Linux's "silent switch" is a muted or turned-down mixer.
package protocol PlaybackMixer: AnyObject {
    /// Unmutes every playback control and raises it to at least `floor` (0...1) of its range;
    /// returns a sentence per control changed.
    func raise(toAtLeast floor: Double) -> [String]
    /// Puts every control back as it was before `raise`.
    func restore()
}

/// The simple-mixer controls of the card behind an ALSA device. The handle is closed in deinit.
///
/// The corresponding C functions are `snd_mixer_open`, `snd_mixer_attach`,
/// `snd_mixer_selem_register`, `snd_mixer_load`, and the `snd_mixer_selem_*_playback_*` family.
package final class AlsaMixer: PlaybackMixer {
    private var handle: OpaquePointer?
    private var saved: [(element: OpaquePointer, volume: Int?, switchOn: Int32?)] = []

    /// Opens the mixer of `device`'s card (`hw:N` for `hw:N,M`/`plughw:N,M`, else the device name),
    /// or nil when there is none — a device without a mixer still rings.
    package init?(device: String) {
        calsa_silence_errors()
        guard snd_mixer_open(&handle, 0) >= 0 else { return nil }
        let card = Self.card(of: device)
        guard snd_mixer_attach(handle, card) >= 0,
            snd_mixer_selem_register(handle, nil, nil) >= 0,
            snd_mixer_load(handle) >= 0
        else {
            // deinit runs for a failed init of a fully initialized object: it closes the handle.
            return nil
        }
    }

    deinit { if handle != nil { snd_mixer_close(handle) } }

    static func card(of device: String) -> String {
        for prefix in ["plughw:", "hw:"] where device.hasPrefix(prefix) {
            return "hw:" + device.dropFirst(prefix.count).prefix { $0 != "," }
        }
        return device
    }

    package func raise(toAtLeast floor: Double) -> [String] {
        var changes: [String] = []
        var element = snd_mixer_first_elem(handle)
        while let current = element {
            defer { element = snd_mixer_elem_next(current) }
            guard snd_mixer_selem_is_active(current) != 0 else { continue }
            let name = String(cString: snd_mixer_selem_get_name(current))
            var volume: Int?
            var switchOn: Int32?
            if snd_mixer_selem_has_playback_switch(current) != 0 {
                var on: Int32 = 1
                snd_mixer_selem_get_playback_switch(current, SND_MIXER_SCHN_FRONT_LEFT, &on)
                switchOn = on
                if on == 0 {
                    snd_mixer_selem_set_playback_switch_all(current, 1)
                    changes.append("unmuted \(name)")
                }
            }
            if snd_mixer_selem_has_playback_volume(current) != 0 {
                var low = 0, high = 0, level = 0
                snd_mixer_selem_get_playback_volume_range(current, &low, &high)
                snd_mixer_selem_get_playback_volume(current, SND_MIXER_SCHN_FRONT_LEFT, &level)
                volume = level
                // The range is the driver's word: computed in floating point, so no range can overflow.
                let wanted = Int(exactly: (Double(low) + (Double(high) - Double(low)) * floor).rounded(.up)).map { min(max($0, low), high) } ?? high
                if level < wanted {
                    snd_mixer_selem_set_playback_volume_all(current, wanted)
                    changes.append("raised \(name) to \(Int(floor * 100)) %")
                }
            }
            if volume != nil || switchOn != nil { saved.append((current, volume, switchOn)) }
        }
        return changes
    }

    package func restore() {
        for (element, volume, switchOn) in saved {
            if let volume { snd_mixer_selem_set_playback_volume_all(element, volume) }
            if let switchOn { snd_mixer_selem_set_playback_switch_all(element, switchOn) }
        }
        saved = []
    }
}
