/// Where words are read: at a terminal, with the commands and flags that act on them, or on the
/// phone's page, with what to tap or what to ask of the machine's owner — never a command line.
package enum Surface: Sendable {
    case terminal
    case page
}
