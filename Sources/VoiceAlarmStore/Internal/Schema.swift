import Foundation

/// The library's schema, as forward migrations: migration N brings `user_version` from N-1 to N.
/// Never edit a shipped migration; add the next one.
enum Schema {
    static let migrations: [String] = [
        // 1: clips, targets (playlists and the one manifesto), their clips in order, alarms, settings.
        """
        CREATE TABLE clips (
            id TEXT PRIMARY KEY,
            title TEXT NOT NULL,
            file_name TEXT NOT NULL,
            frames INTEGER NOT NULL CHECK (frames > 0),
            trimmed_start INTEGER NOT NULL,
            trimmed_length INTEGER NOT NULL,
            sample_rate INTEGER NOT NULL,
            content_hash TEXT NOT NULL,
            created_at TEXT NOT NULL
        );
        CREATE TABLE targets (
            id INTEGER PRIMARY KEY,
            kind TEXT NOT NULL CHECK (kind IN ('playlist', 'manifesto')),
            name TEXT NOT NULL UNIQUE COLLATE NOCASE
        );
        INSERT INTO targets (kind, name) VALUES ('manifesto', 'manifesto');
        CREATE TABLE target_clips (
            target_id INTEGER NOT NULL REFERENCES targets(id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            clip_id TEXT NOT NULL REFERENCES clips(id),
            PRIMARY KEY (target_id, position)
        );
        CREATE INDEX target_clips_by_clip ON target_clips (clip_id);
        CREATE TABLE alarms (
            id TEXT PRIMARY KEY,
            target_id INTEGER NOT NULL REFERENCES targets(id),
            hour INTEGER NOT NULL CHECK (hour BETWEEN 0 AND 23),
            minute INTEGER NOT NULL CHECK (minute BETWEEN 0 AND 59),
            days INTEGER NOT NULL DEFAULT 0,
            date TEXT,
            label TEXT,
            voice INTEGER NOT NULL,
            created_at TEXT NOT NULL,
            sound_file TEXT,
            sound_identity TEXT,
            sound_reason TEXT,
            CHECK ((days = 0) <> (date IS NULL))
        );
        CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        """,
        // 2: the stat of each voice file when it last passed its check ("size:modified:inode").
        """
        ALTER TABLE alarms ADD COLUMN sound_stamp TEXT;
        """,
        // 3: which recordings the voice file was made from (so a rebuild the machine stopped can
        //    keep a file that still matches them), and why a rebuild is still owed.
        """
        ALTER TABLE alarms ADD COLUMN sound_recordings TEXT;
        ALTER TABLE alarms ADD COLUMN rebuild_pending TEXT;
        """,
        // 4: the text a spoken stand-in was made from (`clip say`); null for a person's recording.
        """
        ALTER TABLE clips ADD COLUMN spoken_text TEXT;
        """,
        // 5: opt-in snooze: each alarm's snooze length, and the snoozed rings waiting to ring again
        //    (one per alarm at most; gone with its alarm).
        """
        ALTER TABLE alarms ADD COLUMN snooze_minutes INTEGER;
        CREATE TABLE snoozes (
            alarm_id TEXT PRIMARY KEY REFERENCES alarms(id) ON DELETE CASCADE,
            ring_at REAL NOT NULL,
            count INTEGER NOT NULL CHECK (count > 0)
        );
        """,
        // 6: the web page's paired devices and scripts' tokens (only a digest of each token is
        //    kept), and the one-time pairing codes waiting to be used (digests, with their expiry).
        //    Neither is in the last-known-good copy: a restored library asks devices to pair again,
        //    and never brings back one that was revoked.
        """
        CREATE TABLE devices (
            id TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('browser', 'token')),
            token_digest TEXT NOT NULL UNIQUE,
            created REAL NOT NULL,
            last_seen REAL
        );
        CREATE TABLE pairing_codes (
            code_digest TEXT PRIMARY KEY,
            expires REAL NOT NULL
        );
        """,
        // 7: a paired browser's public key (ECDSA P-256, base64 SPKI): its requests are signed
        //    by the private half, which never leaves that browser's page. Browsers paired before
        //    have none, and pair again.
        """
        ALTER TABLE devices ADD COLUMN public_key TEXT;
        """,
        // 8: an alarm turned off (`alarm off`): kept whole, scheduled nowhere.
        """
        ALTER TABLE alarms ADD COLUMN off INTEGER NOT NULL DEFAULT 0;
        """,
        // 9: the days an alarm does not ring (`alarm skip`): `Skips` as JSON, NULL for none.
        """
        ALTER TABLE alarms ADD COLUMN skips TEXT;
        """,
        // 10: holidays imported from iCalendar files, by calendar; alarms that skip them.
        """
        CREATE TABLE holidays (
            date TEXT NOT NULL,
            name TEXT NOT NULL,
            calendar TEXT NOT NULL,
            PRIMARY KEY (date, calendar)
        );
        ALTER TABLE alarms ADD COLUMN skip_holidays INTEGER NOT NULL DEFAULT 0;
        """,
    ]

    /// Brings the database up to the newest schema, one migration per transaction.
    static func migrate(_ db: Database) throws {
        let current = try db.userVersion
        guard current <= migrations.count else {
            throw StoreError.newerSchema(path: db.path, found: current, supported: migrations.count)
        }
        for version in current..<migrations.count {
            try db.immediateTransaction {
                // Another process may have migrated while this one waited for the lock.
                guard try db.userVersion == version else { return }
                for statement in migrations[version].split(separator: ";").map({ $0.trimmingCharacters(in: .whitespacesAndNewlines) }) where !statement.isEmpty
                {
                    try db.execute(statement)
                }
                try db.execute("PRAGMA user_version = \(version + 1)")
            }
        }
    }
}
