import Foundation

/// When the library's last-known-good copy is written: after each change, or once at the end of
/// a walk that makes many (`deferringBackup`), and never by a rebuild worker's own connection.
extension LibraryStore {
    /// Runs `body`, which may make many changes (a rebuild walking every alarm), and brings the
    /// database file up to date and rewrites the backup once at its end, not once per change:
    /// a walk over n alarms costs n, not n².
    package func deferringBackup<T>(_ body: () throws -> T) rethrows -> T {
        backupDeferrals += 1
        defer {
            backupDeferrals -= 1
            if backupDeferrals == 0 { settleBackup() }
        }
        return try body()
    }

    /// Records that another connection changed the library (a rebuild worker): the backup is
    /// rewritten at the end of the running `deferringBackup`, or now.
    package func noteChangedElsewhere() {
        backupOwed = true
        if backupDeferrals == 0, transactionDepth == 0 { settleBackup() }
    }

    /// Brings the database file up to date with its log and rewrites the backup, when a change owes it.
    func settleBackup() {
        guard backupOwed else { return }
        backupOwed = false
        db.checkpoint()
        if writesBackup { try? LibraryBackup(of: self).write(to: backupPath) }
    }
}
