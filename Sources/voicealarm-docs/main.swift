// `make docs`: writes the man pages and shell completions from the command tables into
// share/man/man1 and share/completions, and the systemd user units the Debian package ships
// into share/systemd/user (checked in; a test fails when they drift).
import Foundation
import VoiceAlarmCLI

let root = CommandLine.arguments.dropFirst().first ?? "share"
let folders = ["\(root)/man/man1": ManPages.all(), "\(root)/completions": Completions.all(), "\(root)/systemd/user": ShippedUnits.all()]
for (folder, files) in folders.sorted(by: { $0.key < $1.key }) {
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    for file in files {
        try file.text.write(toFile: "\(folder)/\(file.file)", atomically: true, encoding: .utf8)
    }
    print("wrote \(files.count) files into \(folder)")
}
