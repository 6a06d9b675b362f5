/// Clips removed: `{"removed": [ids], "targets": [names], "rebuilds"}`.
package struct RemovedJSON: Encodable {
    package var removed: [String]
    package var targets: [String]
    package var rebuilds: RebuildJSON
    package init(removed: [String], targets: [String], rebuilds: RebuildJSON) {
        self.removed = removed
        self.targets = targets
        self.rebuilds = rebuilds
    }
}
