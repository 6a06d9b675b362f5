import Foundation
import VoiceAlarmHTTP

/// The page, served from the binary: no file to install, nothing loaded from elsewhere (the
/// Content-Security-Policy allows only this server, and nothing here is inline).
enum PageAssets {
    static var pairPage: HTTPResponse { html(PairPageText.html) }
    static var appPage: HTTPResponse { html(AppPageText.html) }
    static var pairScript: HTTPResponse { .text(200, PairPageText.script, contentType: "text/javascript; charset=utf-8") }
    static var deviceScript: HTTPResponse { .text(200, DeviceScriptText.script, contentType: "text/javascript; charset=utf-8") }
    static var appScript: HTTPResponse { .text(200, AppScriptText.script, contentType: "text/javascript; charset=utf-8") }
    static var style: HTTPResponse { .text(200, PageStyleText.css, contentType: "text/css; charset=utf-8") }

    private static func html(_ text: String) -> HTTPResponse { .text(200, text, contentType: "text/html; charset=utf-8") }
}
