import Foundation
import VoiceAlarm
import VoiceAlarmAudio
import VoiceAlarmCore
import VoiceAlarmDocuments
import VoiceAlarmFiles
import VoiceAlarmHTTP

/// A request that failed, as the API answers it: an HTTP status and the command line's error
/// object `{"error": {"message", "input", "code"}}` (`code` 64 for a malformed request, 1 for a
/// refused or failed one, as the command line's exit status would be).
struct WebFailure: Error {
    var status: Int
    var message: String
    var input: String?
    var code: Int32 = 1
    var retryAfter: Int?

    init(status: Int, message: String, input: String? = nil, code: Int32 = 1) {
        self.status = status
        self.message = message
        self.input = input
        self.code = code
    }

    /// What the service's error means for the person, with the status its kind says
    /// (`FailureKind`), in the page's words (`ProblemText`).
    init(_ error: any Error) {
        if let failure = error as? WebFailure {
            self = failure
            return
        }
        let kind = Classified.kind(of: error)
        switch kind {
        case .malformed, .invalid: status = 400
        case .unauthenticated: status = 401
        case .forbidden: status = 403
        case .notFound: status = 404
        case .conflict: status = 409
        case .limited(let seconds): status = 429; retryAfter = seconds
        case .unusableRecording: status = 422
        case .environment: status = 500
        case .diskFull: status = 507
        }
        message = kind == .diskFull ? Self.diskFull : ProblemText.sentence(error, on: .page)
        input = Classified.input(of: error)
        code = kind == .malformed ? 64 : 1
    }

    /// What a full disk says to the phone: the temporary file or library path it happened in
    /// means nothing there, and is the machine's own business.
    static let diskFull = "The bedside machine's disk is full, so nothing was kept. Free some space on it, then try again."

    var response: HTTPResponse {
        var response = WebJSON.response(status, ErrorReport(message: message, input: input, code: code))
        if let retryAfter { response = response.adding("Retry-After", String(retryAfter)) }
        return response
    }
}
