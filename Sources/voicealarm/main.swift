import Foundation
import VoiceAlarmCLI

InterruptHandler.install()
exit(VoiceAlarmTool.run(Array(CommandLine.arguments.dropFirst()), console: .standard))
