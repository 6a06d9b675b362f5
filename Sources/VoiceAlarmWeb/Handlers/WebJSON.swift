import Foundation
import VoiceAlarmDocuments
import VoiceAlarmHTTP

/// The API's JSON in and out: a request's body read as a document (a 400 naming what is wrong
/// when it is not one), and a document answered with its status.
enum WebJSON {
    /// `value` as the command line's `--json` prints it, with `status`.
    static func response<T: Encodable>(_ status: Int, _ value: T) -> HTTPResponse {
        HTTPResponse.text(status, JSONOutput.encode(value) + "\n", contentType: "application/json; charset=utf-8")
    }

    /// The request's JSON body as `T`; a 400 with the reason when it is not.
    static func decode<T: Decodable>(_ type: T.Type, from request: HTTPRequest) throws -> T {
        guard case .data(let data) = request.body else {
            if case .tooLarge(let limit) = request.body {
                throw WebFailure(status: 413, message: "the request body is larger than \(limit / 1024) KB", code: 64)
            }
            throw WebFailure(status: 400, message: "the request has no JSON body", code: 64)
        }
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch let DecodingError.keyNotFound(key, _) {
            throw WebFailure(status: 400, message: "the JSON body has no '\(key.stringValue)'", input: key.stringValue, code: 64)
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            let key = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw WebFailure(status: 400, message: "the JSON body's '\(key)' has the wrong type", input: key, code: 64)
        } catch {
            throw WebFailure(status: 400, message: "the request body is not JSON", code: 64)
        }
    }

    /// The audio type a browser's player needs for a file of ours.
    static func audioType(_ fileName: String) -> String {
        switch (fileName as NSString).pathExtension.lowercased() {
        case "m4a": "audio/mp4"
        case "mp3": "audio/mpeg"
        case "wav": "audio/wav"
        case "flac": "audio/flac"
        case "caf": "audio/x-caf"
        case "aiff", "aif": "audio/aiff"
        default: "application/octet-stream"
        }
    }
}
