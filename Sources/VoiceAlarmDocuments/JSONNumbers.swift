/// How numbers read in every document.
package enum JSONNumbers {
    /// Seconds rounded to milliseconds, as every duration is.
    package static func seconds(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
}
