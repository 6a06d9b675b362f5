import VoiceAlarmCore
import VoiceAlarmStore

/// The library's render settings, remembered in the data dir: reading them, and changing one,
/// which rebuilds every voice alarm (files whose extension changed are removed).
public final class SettingsEditor {
    let store: LibraryStore
    let sync: ScheduleSync

    init(store: LibraryStore, sync: ScheduleSync) {
        self.store = store
        self.sync = sync
    }

    /// The settings in force.
    public func current() throws -> RenderSettings {
        try LibrarySettings.renderSettings(from: store.settings())
    }

    /// Changes one render setting (`value` in the `voicealarm settings` syntax) and rebuilds
    /// every voice alarm.
    /// - Throws: `SettingsError` when the value does not parse or fit with the others.
    public func change(_ key: RenderSettingKey, to value: String) throws -> RebuildSummary {
        precondition(key.isLibrarySetting, "the library does not remember \(key)")
        let current = try store.settings()
        var updated = current
        updated[key.settingName] = value
        _ = try LibrarySettings.renderSettings(from: updated)   // validates the whole set
        try store.setSetting(key.settingName, value)
        guard current[key.settingName] != value else { return RebuildSummary() }
        return try sync.refresh(affectedBy: .settings)
    }
}
