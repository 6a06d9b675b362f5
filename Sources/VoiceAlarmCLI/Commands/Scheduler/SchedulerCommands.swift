/// `voicealarm reconcile`, `daemon`, `doctor`: keeping the scheduler in step, and ringing, in the
/// order help lists them.
enum SchedulerCommands: CommandGroup {
    static let commands: [any Command.Type] = [ReconcileCommand.self, DaemonCommand.self, DoctorCommand.self]
}
