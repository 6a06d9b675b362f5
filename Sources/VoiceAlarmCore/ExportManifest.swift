/// What a library archive (`voicealarm export`) says it holds: its format and version, and each
/// file's path inside the archive's folder with its length and SHA-256, so that `import` can
/// refuse an archive that lost, gained or changed a byte before it touches the library.
///
/// An archive is one folder, `voicealarm-export/`, holding `manifest.json` (this), `library.json`
/// (the clips, playlists, manifesto, alarms, settings and holidays, as `LibraryBackup` writes
/// them) and `clips/` (every recording's FLAC copy, as stored). Nothing else: no paired device,
/// token, key or certificate is ever written into one.
///
/// ```swift
/// let manifest = ExportManifest(created: "2026-12-07T07:00:00Z", files: [.init(path: "library.json", sha256: hash, bytes: 812)])
/// let problem = ExportManifest.pathProblem("voicealarm-export/../etc/passwd")   // "it leaves the archive's folder"
/// ```
package struct ExportManifest: Codable, Equatable, Sendable {
    /// The folder every entry is in.
    package static let folder = "voicealarm-export"
    /// The manifest's own name in the folder.
    package static let fileName = "manifest.json"
    /// The library's records in the folder.
    package static let libraryFileName = "library.json"
    /// The recordings' folder in the folder.
    package static let clipsFolder = "clips"
    /// What `format` says in every archive.
    package static let formatName = "voicealarm-export"
    /// The version this build writes and the only one it reads.
    package static let currentVersion = 1

    /// One file of the archive: its path inside the folder, its length and its SHA-256 (hex).
    package struct File: Codable, Equatable, Sendable {
        package var path: String
        package var bytes: Int64
        package var sha256: String

        package init(path: String, bytes: Int64, sha256: String) {
            self.path = path
            self.bytes = bytes
            self.sha256 = sha256
        }
    }

    package var format = ExportManifest.formatName
    package var formatVersion = ExportManifest.currentVersion
    /// When it was written (ISO 8601).
    package var created: String
    package var files: [File]

    package init(created: String, files: [File]) {
        self.created = created
        self.files = files
    }

    /// The bounds an archive is read within, whatever its headers claim: each entry's data is
    /// counted as it is copied and the copy stops at the bound.
    package enum Limits {
        /// One entry: a 10-minute recording (`InputLimits.longestRecording`) as FLAC is far less.
        package static let entryBytes: Int64 = 128 * 1024 * 1024
        /// The whole archive's data.
        package static let totalBytes: Int64 = 4 * 1024 * 1024 * 1024
        /// Entries, folders included.
        package static let entries = 10_000
        /// `manifest.json` and `library.json`.
        package static let recordBytes: Int64 = 16 * 1024 * 1024
    }

    /// Why an entry's path cannot be in an archive, or nil when it is one inside the folder:
    /// absolute paths, `..`, `.`, empty components and control characters are refused, and
    /// everything must be under `voicealarm-export/`.
    package static func pathProblem(_ path: String) -> String? {
        if path.isEmpty { return "it has no name" }
        if path.hasPrefix("/") { return "it is an absolute path" }
        if PrintableText.hasControlCharacters(path) || path.contains("\\") { return "its name holds control characters or a backslash" }
        var components = path.split(separator: "/", omittingEmptySubsequences: false)
        if components.last == "" { components.removeLast() }  // a folder's trailing slash
        if components.contains(where: { $0 == ".." }) { return "it leaves the archive's folder (..)" }
        if components.contains(where: { $0 == "." || $0.isEmpty }) { return "its path has an empty or '.' component" }
        if components.first.map(String.init) != folder { return "it is outside the archive's folder (\(folder)/)" }
        return nil
    }

    /// The path inside the folder of an entry `pathProblem` accepts ("" for the folder itself).
    package static func relativePath(_ path: String) -> String {
        var components = path.split(separator: "/").map(String.init)
        components.removeFirst()
        return components.joined(separator: "/")
    }
}
