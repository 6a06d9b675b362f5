/// A playlist deleted: `{"name", "removedAlarms"}`.
package struct DeletedJSON: Encodable {
    package var name: String
    package var removedAlarms: [String]
    package init(name: String, removedAlarms: [String]) {
        self.name = name
        self.removedAlarms = removedAlarms
    }
}
