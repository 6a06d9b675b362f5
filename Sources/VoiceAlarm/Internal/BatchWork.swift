import Foundation
import VoiceAlarmCore
import VoiceAlarmFiles

/// The batch workers' shared state: what was built, and the running counts progress shows.
final class BatchWork: Sendable {
    private struct State {
        var done: Int
        var failed: Int
        var collected: [(BatchManifest.Item, key: String, Result<RenderReport, Error>)] = []
    }
    private let state: Locked<State>

    init(done: Int, failed: Int) {
        state = Locked(State(done: done, failed: failed))
    }

    var done: Int { state.withLock { $0.done } }
    var failed: Int { state.withLock { $0.failed } }

    func record(_ built: [(BatchManifest.Item, String, Result<RenderReport, Error>)]) -> (done: Int, failed: Int) {
        state.withLock {
            for (item, key, result) in built {
                $0.collected.append((item, key, result))
                $0.done += 1
                if case .failure = result { $0.failed += 1 }
            }
            return ($0.done, $0.failed)
        }
    }

    var results: [(BatchManifest.Item, key: String, Result<RenderReport, Error>)] { state.withLock { $0.collected } }
}
