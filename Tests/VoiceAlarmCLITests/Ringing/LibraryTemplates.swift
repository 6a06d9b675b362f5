import Foundation
import TestSupport

/// Libraries that many tests ask for alike (a manifesto alarm on a sample), made once per test
/// process by the commands a test would run, and copied for each test that asks.
///
/// Three commands that each open FFmpeg made every such library: about 55 CPU-seconds of a test
/// run on two cores. A copy is a library of its own: nothing in a library's files names its
/// folder. Its voice file has a new inode, so it is built once (`build --all`, which records the
/// file's stamp after checking it), as a library copied by a person would be. Copies share the
/// template's alarm id: a test that looks outside its library for what an id names (processes,
/// by `pgrep`) names its library too.
actor LibraryTemplates {
    static let shared = LibraryTemplates()

    private var made: [String: Task<(dataDir: String, id: String), any Error>] = [:]

    /// The data folder of the template made by `make` for `key` (made once, however many tests
    /// ask at once), and the id `make` returned. `make` is given the data folder to make.
    func library(_ key: String, make: @escaping @Sendable (String) async throws -> String) async throws -> (dataDir: String, id: String) {
        if made[key] == nil {
            let dataDir = "\(ProcessFolder.path)/template-\(made.count)/data"
            made[key] = Task { (dataDir, try await make(dataDir)) }
        }
        return try await made[key]!.value
    }
}
