import Foundation
import VoiceAlarmCLI

exit(VoiceAlarmTool.run(Array(CommandLine.arguments.dropFirst()), console: .standard))
