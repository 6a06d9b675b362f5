/// A render that failed because of one of its clips: which one, and why.
///
/// `index` is the clip's position in the sources given to `RingtoneRenderer.render`, so a
/// caller that holds the clips can act on the one at fault (the library leaves it out of its
/// playlist's ringtone and renders again) without parsing a path. It prints exactly as the
/// underlying `AudioError`, whose text already names the file.
package struct ClipSourceError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The failing clip's position among the sources rendered (0-based).
    package var index: Int
    /// What went wrong with it.
    package var underlying: AudioError

    package init(index: Int, underlying: AudioError) {
        self.index = index
        self.underlying = underlying
    }

    package var description: String { underlying.description }
}
