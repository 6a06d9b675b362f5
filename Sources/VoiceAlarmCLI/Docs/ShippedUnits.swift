import Foundation
import VoiceAlarm

/// The systemd user units the Debian package installs into `/usr/lib/systemd/user` (checked in
/// as `share/systemd/user`, written by `make docs`; a test compares): the daemon's and the web
/// page's for each account's default data dir, with the `[Service]` sections of the units
/// `service install` writes, so that it can enable them instead.
package enum ShippedUnits {
    package static func all() -> [(file: String, text: String)] {
        [DaemonService.Unit.Role.daemon, .web(serveArguments: WebService.Options().serveArguments), .mqtt].map { role in
            (DaemonService.Shipped.name(role), DaemonService.Shipped.text(role))
        }
    }
}
