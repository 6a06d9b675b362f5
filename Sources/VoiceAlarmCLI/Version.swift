/// VoiceAlarm's version: the one place it is written. `voicealarm --version`, the man pages and
/// `make install` read it from here.
package enum Version {
    package static let current = "0.5.0"
}
