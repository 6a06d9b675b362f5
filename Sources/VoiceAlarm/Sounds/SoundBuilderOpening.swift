/// How a rebuild worker gets a `SoundBuilder` of its own. SQLite connections are not shared
/// between threads, so each worker of a rebuild pool opens the library again: the product's
/// opener is `AlarmService.Connector` (the real renderer and checker); tests give one that makes
/// builders with fakes.
package protocol SoundBuilderOpening: Sendable {
    /// A builder on a new connection to the library, whose warnings go to `warn`.
    /// - Throws: what opening the library throws (`StoreError`); that worker then builds nothing
    ///   and its share is built by the others, or by the caller.
    func openBuilder(warn: @escaping @Sendable (ServiceWarning) -> Void) throws -> SoundBuilder
}
