import Foundation
import VoiceAlarmHTTP

/// The page, served from the binary: its files in `Page/` are compiled in (`PackageResources`,
/// SwiftPM's `.embedInCode`), so there is nothing to install beside `voicealarm` and nothing is
/// loaded from elsewhere (the Content-Security-Policy allows only this server, and nothing in
/// the page is inline). The PNG icons are drawn from the SVG's shapes (`PageIcon`).
/// Each answer is made once, on first use, not copied again at every request.
enum PageAssets {
    static let appPage: HTTPResponse = file(PackageResources.app_html, "text/html; charset=utf-8")
    static let pairPage: HTTPResponse = file(PackageResources.pair_html, "text/html; charset=utf-8")
    /// The page's JavaScript, as native ES modules (no bundler): `app.mjs` and `pair.mjs` and
    /// what they import, each served at `/NAME` (`WebRoutes`) and kept by the service worker
    /// (`sw.js`'s `MODULES`, which must name the same files).
    static let modules: [(path: String, response: HTTPResponse)] = [
        ("/app.mjs", script(PackageResources.app_mjs)),
        ("/page.mjs", script(PackageResources.page_mjs)),
        ("/page-logic.mjs", script(PackageResources.page_logic_mjs)),
        ("/store.mjs", script(PackageResources.store_mjs)),
        ("/live.mjs", script(PackageResources.live_mjs)),
        ("/api.mjs", script(PackageResources.api_mjs)),
        ("/messages.mjs", script(PackageResources.messages_mjs)),
        ("/dom.mjs", script(PackageResources.dom_mjs)),
        ("/ui.mjs", script(PackageResources.ui_mjs)),
        ("/player.mjs", script(PackageResources.player_mjs)),
        ("/recorder.mjs", script(PackageResources.recorder_mjs)),
        ("/view-top.mjs", script(PackageResources.view_top_mjs)),
        ("/view-alarms.mjs", script(PackageResources.view_alarms_mjs)),
        ("/view-voice.mjs", script(PackageResources.view_voice_mjs)),
        ("/view-machine.mjs", script(PackageResources.view_machine_mjs)),
        ("/device.mjs", script(PackageResources.device_mjs)),
        ("/pair.mjs", script(PackageResources.pair_mjs)),
    ]
    static let style: HTTPResponse = file(PackageResources.style_css, "text/css; charset=utf-8")
    static let manifest: HTTPResponse = file(PackageResources.manifest_webmanifest, "application/manifest+json; charset=utf-8")
    static let iconSVG: HTTPResponse = file(PackageResources.icon_svg, "image/svg+xml; charset=utf-8")
    /// The service worker; `Service-Worker-Allowed` is not needed: it lives at the root it controls.
    static let serviceWorker: HTTPResponse = script(PackageResources.sw_js)
    /// What any other service worker's script is answered with: a worker that removes itself
    /// (one registered by whoever held this address before), so the page is ours again.
    static let retiringWorker: HTTPResponse = script(PackageResources.retire_sw_js)

    /// The icon as a PNG of `size` pixels square.
    static func icon(_ size: Int) -> HTTPResponse {
        HTTPResponse(status: 200, headers: [("Content-Type", "image/png")], body: .data(PageIcon.png(size: size)))
    }

    private static func script(_ bytes: [UInt8]) -> HTTPResponse { file(bytes, "text/javascript; charset=utf-8") }

    private static func file(_ bytes: [UInt8], _ type: String) -> HTTPResponse {
        HTTPResponse(status: 200, headers: [("Content-Type", type)], body: .data(Data(bytes)))
    }
}
