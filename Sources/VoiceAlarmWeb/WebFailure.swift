import Foundation
import VoiceAlarm
import VoiceAlarmAudio
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

    /// What the service's error means for the person, with the status that says so.
    init(_ error: any Error) {
        switch error {
        case let failure as WebFailure:
            self = failure
            return
        case let error as DeviceError:
            switch error {
            case .wrongCode, .expiredCode: status = 403
            case .tooManyAttempts(let seconds): status = 429; retryAfter = seconds
            case .invalidName, .notAnID: status = 400
            case .unknownDevice: status = 404
            case .ambiguousDevice: status = 409
            case .notPaired, .pairingUnknown, .pairedBeforeKeys, .noSession: status = 401
            case .unknownChallenge, .badSignature: status = 403
            }
        case let error as LibraryError:
            switch error {
            case .unknownClip, .unknownAlarm, .unknownPlaylist, .unknownPreview, .noPendingSnooze: status = 404
            case .playlistExists, .playlistInUse, .clipInUse, .rule, .ambiguousID: status = 409
            default: status = 400
            }
        case is AudioError, is ClipSourceError, is UnusableClip: status = 422
        default: status = 500
        }
        message = SystemError.text(of: error)
        input = FailureInput.of(error)
        code = 1
    }

    var response: HTTPResponse {
        var response = WebJSON.response(status, ErrorReport(message: message, input: input, code: code))
        if let retryAfter { response = response.adding("Retry-After", String(retryAfter)) }
        return response
    }
}
