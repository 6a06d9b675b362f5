/// VoiceAlarm's version: the one place it is written. `voicealarm --version`, the man pages and
/// `make install` read it from here.
public enum Version {
    public static let current = "0.5.0"
}
