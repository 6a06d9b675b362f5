/// `voicealarm mqtt`: Home Assistant follows the alarms.
enum HomeCommands: CommandGroup {
    static let commands: [any Command.Type] = [MQTTCommand.self]
}
