import Foundation

/// A pipeline's list of ringtones to build:
/// `{"format": "m4a", "ringtones": [{"id": "morning-01", "clips": ["clips/a.mp3", "clips/b.wav"]}]}`.
///
/// Clip paths are relative to the manifest's folder or absolute. `format`, `codec`, `cap`, `gap`,
/// `trimSilence`, `normalize` and `targetLufs` may be given for the whole manifest and per
/// ringtone; a ringtone's own value wins, then the manifest's, then the command line's, then
/// the built-in default. A ringtone that is wrong fails alone; a manifest that cannot be read
/// at all fails whole.
package struct BatchManifest: Sendable {
    /// One ringtone to build, or why it cannot be.
    package struct Item: Sendable {
        package var id: String
        /// Absolute paths of the clips, in order.
        package var clips: [String]
        package var settings: RenderSettings
        /// Why this ringtone cannot be built (a bad id, no clips, a bad setting), or nil.
        package var problem: String?
        /// The clips as the manifest writes them (before they are made absolute).
        package var writtenClips: [String] = []

        /// The ringtone's file in the output folder: its id and its format's extension.
        package var fileName: String { fileName(as: settings.format) }

        /// Its file in the output folder were it built as `format` (a sweep looks for every format's).
        package func fileName(as format: RingtoneFormat) -> String { "\(id).\(format.fileExtension)" }

        /// The text whose SHA-256 decides the ringtone's shard (`ShardSpec`): its settings and its
        /// clips as the manifest writes them. Ringtones declared alike land in one shard (and are
        /// built once), a clip's new bytes never move a ringtone to another shard, and no shard
        /// reads another's clips to decide. A ringtone that cannot be built is placed by its id.
        package var shardKey: String {
            problem == nil ? (["shard-v1", settings.fingerprint] + writtenClips).joined(separator: "\n") : "shard-v1-id\n\(id)"
        }
    }

    package var items: [Item]

    /// The settings keys a manifest may hold.
    package static let settingKeys = Set(RenderSettingKey.allCases.map(\.manifestName))

    /// Parses `data`, read from a manifest in `folder`, on top of `base` settings (the command line's).
    /// - Throws: `BatchManifestError` when the manifest is not JSON or has no `ringtones` list.
    package init(data: Data, folder: String, base: RenderSettings) throws {
        let root: JSON
        do { root = try JSONDecoder().decode(JSON.self, from: data) } catch {
            throw BatchManifestError("not JSON (\(Self.describe(error)))")
        }
        guard case .object(let object) = root else { throw BatchManifestError("the top level must be an object") }
        guard case .array(let list)? = object["ringtones"] else { throw BatchManifestError("no \"ringtones\" list") }
        var manifestSettings = base
        if let problem = Self.apply(object, to: &manifestSettings) { throw BatchManifestError(problem) }

        var seen: [String: Int] = [:]
        items = list.enumerated().map { index, entry in
            guard case .object(let ringtone) = entry else {
                return Item(id: "#\(index + 1)", clips: [], settings: manifestSettings, problem: "ringtone #\(index + 1) is not an object")
            }
            let id = ringtone["id"]?.string ?? ""
            var item = Item(id: id.isEmpty ? "#\(index + 1)" : id, clips: [], settings: manifestSettings, problem: nil)
            if let problem = Self.idProblem(ringtone["id"]) { item.problem = problem; return item }
            seen[id, default: 0] += 1
            guard case .array(let clips)? = ringtone["clips"], !clips.isEmpty else {
                item.problem = "\"clips\" must be a non-empty list of paths"
                return item
            }
            let paths = clips.compactMap(\.string)
            guard paths.count == clips.count, paths.allSatisfy({ !$0.isEmpty }) else {
                item.problem = "every clip must be a path (a non-empty string)"
                return item
            }
            item.writtenClips = paths
            item.clips = paths.map { $0.hasPrefix("/") ? $0 : (folder as NSString).appendingPathComponent($0) }
            let unknown = Set(ringtone.keys).subtracting(Self.settingKeys).subtracting(["id", "clips"])
            if let key = unknown.sorted().first { item.problem = "unknown key \"\(key)\""; return item }
            if let problem = Self.apply(ringtone, to: &item.settings) { item.problem = problem }
            return item
        }
        for index in items.indices where seen[items[index].id, default: 0] > 1 && items[index].problem == nil {
            items[index].problem = "the id \"\(items[index].id)\" is used by more than one ringtone"
        }
    }

    /// Why `value` cannot name an output file, or nil.
    static func idProblem(_ value: JSON?) -> String? {
        guard let id = value?.string, !id.isEmpty else { return "every ringtone needs an \"id\" (a non-empty string)" }
        if id.contains("/") || id.contains("\0") || id == "." || id == ".." || id.hasPrefix(".") || id.contains("..") {
            return "the id \"\(id.replacingOccurrences(of: "\0", with: "\\0"))\" must not contain '/', '..' or NUL, nor start with '.'"
        }
        if PrintableText.hasControlCharacters(id) { return "the id must not contain control characters" }
        if id.utf8.count > 200 { return "the id is longer than 200 bytes" }
        return nil
    }

    /// Applies the settings keys present in `object` (manifest spelling) to `settings`, through
    /// the one validator; returns the problem, if any.
    static func apply(_ object: [String: JSON], to settings: inout RenderSettings) -> String? {
        for key in RenderSettingKey.allCases {
            guard let json = object[key.manifestName] else { continue }
            let name = "\"\(key.manifestName)\""
            let value: RenderSettingKey.Value
            switch (key, json) {
            case (.format, .string(let text)) where RingtoneFormat(rawValue: text) != nil: value = .format(RingtoneFormat(rawValue: text)!)
            case (.format, _): return "\(name) must be one of m4a, caf, wav, aiff, mp3"
            case (.codec, .string(let text)) where RingtoneCodec(rawValue: text) != nil: value = .codec(RingtoneCodec(rawValue: text)!)
            case (.codec, _): return "\(name) must be pcm or ima4 (or aac, mp3)"
            case (.cap, .number(let number)), (.gap, .number(let number)), (.targetLUFS, .number(let number)): value = .number(number)
            case (.cap, _), (.gap, _), (.targetLUFS, _): return "\(name) must be a number"
            case (.trimSilence, .bool(let flag)), (.normalize, .bool(let flag)): value = .flag(flag)
            case (.trimSilence, _), (.normalize, _): return "\(name) must be true or false"
            }
            // A codec the format cannot carry gives way to the format's default, as manifests always had it.
            if case .codec(let codec) = value, !settings.format.allowedCodecs.contains(codec) { continue }
            do { try settings.set(key, value) } catch { return error.reason }
        }
        return nil
    }

    private static func describe(_ error: Error) -> String {
        if case DecodingError.dataCorrupted(let context) = error {
            return (context.underlyingError as NSError?)?.localizedDescription ?? context.debugDescription
        }
        return "\(error)"
    }
}

/// A JSON value, decoded strictly (`true` is never `1`).
package enum JSON: Decodable, Equatable, Sendable {
    case null, bool(Bool), number(Double), string(String), array([JSON]), object([String: JSON])

    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSON].self))
        }
    }

    package var string: String? { if case .string(let s) = self { s } else { nil } }
}

/// A manifest that cannot be read at all.
package struct BatchManifestError: Error, Equatable, CustomStringConvertible {
    package var reason: String
    package init(_ reason: String) { self.reason = reason }
    package var description: String { reason }
}
