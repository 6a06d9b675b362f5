import Foundation
import VoiceAlarmCore
import VoiceAlarmStore

/// The library's render settings, remembered in the data dir: reading them, and changing one,
/// which rebuilds every voice alarm (files whose extension changed are removed).
package final class SettingsEditor {
    let store: LibraryStore
    let sync: ScheduleSync

    init(store: LibraryStore, sync: ScheduleSync) {
        self.store = store
        self.sync = sync
    }

    /// The ALSA device alarms ring on (`settings device NAME`): rings, `listen`, the daemon, the
    /// systemd units and `doctor` use it. Nil when none was chosen (`default`).
    package func device() throws -> String? { try store.settings().device }

    /// Remembers the playback device and re-writes what carries it (the systemd units).
    /// - Throws: `SettingsError` for an empty name or one with control characters.
    package func setDevice(_ name: String) throws -> ReconcileReport {
        guard !name.trimmingCharacters(in: .whitespaces).isEmpty, name.count <= 200,
            !PrintableText.hasControlCharacters(name)
        else {
            throw SettingsError(key: LibrarySettings.Key.device.rawValue, value: name, reason: "a device is an ALSA name such as default, plughw:1,0 or pulse")
        }
        try store.changeSettings { $0.device = name }
        return try sync.reconcile(with: sync.scheduler.carrying(device: name))
    }

    /// Seconds over which rings rise from quiet to full level (`settings ramp SECONDS`); 0, the
    /// default, rings at full level from the start.
    package func ramp() throws -> Double {
        // Kept as text anyone may edit: "nan" or "1e999" parse, and are clamped like any value out of range.
        try store.settings().rampSeconds.map(VolumeRamp.clamped) ?? 0
    }

    /// Remembers the volume ramp.
    /// - Throws: `SettingsError` for a value that is not 0 to 120 seconds.
    package func setRamp(_ text: String) throws {
        guard let seconds = Double(text), (0...VolumeRamp.maximumSeconds).contains(seconds) else {
            throw SettingsError(
                key: LibrarySettings.Key.ramp.rawValue, value: text, reason: "must be 0 to \(Int(VolumeRamp.maximumSeconds)) (seconds; 0 for none)")
        }
        try store.changeSettings { $0.rampSeconds = seconds }
    }

    /// The settings in force.
    package func current() throws -> RenderSettings {
        try store.settings().renderSettings()
    }

    /// Changes one render setting (`value` in the `voicealarm settings` syntax) and rebuilds
    /// every voice alarm; the library's backup is written once, at the end (a copy one setting
    /// behind, should the rebuild be stopped, only rebuilds again).
    /// - Throws: `SettingsError` when the value does not parse or fit with the others.
    package func change(_ key: RenderSettingKey, to value: String) throws -> RebuildSummary {
        try store.deferringBackup { try changeDeferred(key, to: value) }
    }

    private func changeDeferred(_ key: RenderSettingKey, to value: String) throws -> RebuildSummary {
        precondition(key.isLibrarySetting, "the library does not remember \(key)")
        let current = try store.settings()
        var updated = current
        updated.setRender(key, to: value)
        _ = try updated.renderSettings()  // validates the whole set
        sync.builder.noteRecordings(builtWith: try current.renderSettings())
        try store.changeSettings { $0.setRender(key, to: value) }
        guard current != updated else { return RebuildSummary() }
        return try sync.refresh(affectedBy: .settings)
    }
}
