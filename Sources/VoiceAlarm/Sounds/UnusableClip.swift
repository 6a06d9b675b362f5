/// One clip of a render could not be used: which one (its position in the clips rendered), and why.
public struct UnusableClip: Error, CustomStringConvertible {
    /// The clip's position in the clips that were rendered.
    public var index: Int
    /// Why it could not be used (an `AudioError` in the product).
    public var reason: any Error

    /// One clip at `index` that failed for `reason`.
    public init(index: Int, reason: any Error) {
        self.index = index
        self.reason = reason
    }

    public var description: String { "\(reason)" }
}
