import VoiceAlarm

/// What `doctor` found: the scheduler, the library, the daemon and the web page's services, the device, whether alarms can
/// wake the machine, and each problem as a sentence.
package struct DoctorJSON: Encodable {
    package struct Wake: Encodable { package var clock: String; package var canWake: Bool; package var reason: Nullable<String> }
    package var scheduler: Nullable<String>, library: Nullable<String>, daemonService: Nullable<String>, webService: Nullable<String>, dataDir: String,
        soundsDir: String
    package var unitDir: Nullable<String>
    package var alarms: Int, live: Int, withVoice: Int, device: String, deviceOpens: Bool, wake: Wake, problems: [String]

    /// The report in the words of `surface`: the terminal's for `--json`, the page's for the web API.
    package init(_ report: Doctor.Report, on surface: Surface = .terminal) {
        scheduler = .init(report.backend?.rawValue)
        library = .init(report.libraryProblem)
        daemonService = .init(report.daemonService?.words(web: false, on: surface))
        webService = .init(report.webService?.words(web: true, on: surface))
        dataDir = report.dataDirectory
        soundsDir = report.soundsDirectory
        unitDir = .init(report.unitDirectory)
        alarms = report.alarms
        live = report.live
        withVoice = report.withVoice
        device = report.device
        deviceOpens = report.deviceOpens
        wake = Wake(clock: report.wakeClock, canWake: report.cannotWake == nil, reason: .init(report.cannotWake?.sentence(on: surface)))
        problems = report.problems.map { $0.sentence(libraryOpens: report.libraryProblem == nil, on: surface) }
    }
}
