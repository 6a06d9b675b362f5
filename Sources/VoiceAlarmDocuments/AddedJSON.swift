/// An alarm just added: `{"alarm", "notes"}` (the daylight-saving note and warnings, as said on stderr).
package struct AddedJSON: Encodable {
    package var alarm: AlarmJSON
    package var notes: [String]
    package init(alarm: AlarmJSON, notes: [String]) {
        self.alarm = alarm
        self.notes = notes
    }
}
