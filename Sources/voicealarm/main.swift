import Foundation
import VoiceAlarmCLI

InterruptHandler.install()
InterruptHandler.exit(VoiceAlarmTool.run(Array(CommandLine.arguments.dropFirst()), console: .standard))
