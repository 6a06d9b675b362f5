import Foundation
import TestSupport
import Testing
import VoiceAlarm
import VoiceAlarmCore
import VoiceAlarmHTTP

@testable import VoiceAlarmWeb

@Suite("Who may use the web page: pairing, tokens, origins")
struct WebAccessTests {
    @Test("Every route but the page's own files, pairing and the session handshake refuses a request without a device or token", arguments: GuardedRoutes.all)
    func refusedWithoutDevice(_ method: String, _ path: String) async throws {
        let site = try WebTestSite()
        let response = site.send(site.request(method, path))
        #expect(response.status == 401)
        #expect(response.errorMessage?.contains("not paired") == true)
        // A token nobody was given is no better, nor a cookie, nor a session nobody opened.
        #expect(site.send(site.request(method, path, bearer: "guessed")).status == 401)
        #expect(site.send(site.request(method, path, cookie: "guessed")).status == 401)
        #expect(site.send(site.request(method, path, session: "guessed")).status == 401)
    }

    @Test("The page's own files, pairing and the session handshake are open to anyone; everything else is not")
    func openRoutes() async throws {
        let site = try WebTestSite()
        for (path, type) in [
            ("/", "text/html"), ("/app.mjs", "text/javascript"), ("/page-logic.mjs", "text/javascript"), ("/pair", "text/html"),
            ("/pair.mjs", "text/javascript"), ("/device.mjs", "text/javascript"), ("/store.mjs", "text/javascript"), ("/style.css", "text/css"),
            ("/manifest.webmanifest", "application/manifest+json"), ("/sw.js", "text/javascript"), ("/icon.svg", "image/svg+xml"),
            ("/icon-192.png", "image/png"), ("/icon-512.png", "image/png"), ("/apple-touch-icon.png", "image/png"),
        ] {
            let response = site.send(site.request("GET", path))
            #expect(response.status == 200 && response.header("Content-Type")?.hasPrefix(type) == true, "\(path)")
        }
        #expect(site.send(site.request("GET", "/nothing")).status == 404)
        let wrongMethod = site.send(site.request("PATCH", "/api/alarms"))
        #expect(wrongMethod.status == 405 && wrongMethod.header("Allow") == "GET, POST")
    }

    @Test("Pairing: the code works once; no cookie is set; the device opens sessions by its key alone; a revoked device is refused")
    func pairing() async throws {
        let site = try WebTestSite()
        let code = try site.registry().newPairingCode()
        let key = try await BrowserKey.make(in: site.folder.path)
        let pair = site.send(site.request("POST", "/api/pair", json: #"{"code": "\#(code.code.lowercased())", "name": "Phone", "key": "\#(key.publicKey)"}"#))
        #expect(pair.status == 201)
        #expect(pair.header("Set-Cookie") == nil, "no cookie: any port's page could read or overwrite it")
        let device = try #require((pair.json as? [String: Any])?["id"] as? String)
        // Naming the device opens the page, not the library: that takes the session its key signs.
        let bare = site.send(site.request("GET", "/api/alarms", device: device))
        #expect(bare.status == 401)
        let session = try await site.session(for: device, key: key)
        #expect(site.send(site.request("GET", "/api/alarms", session: session)).status == 200)
        // The same code again: used up.
        let again = site.send(site.request("POST", "/api/pair", json: #"{"code": "\#(code.code)", "name": "Other", "key": "\#(key.publicKey)"}"#))
        #expect(again.status == 403)
        let devices = try site.registry().all()
        #expect(devices.map(\.name) == ["Phone"])
        // Revoked: refused at once, from the page as from the API.
        let revoke = site.send(site.request("DELETE", "/api/devices/\(devices[0].id.uuidString.lowercased())", session: session))
        #expect(revoke.status == 200)
        #expect(site.send(site.request("GET", "/api/alarms", session: session)).status == 401)
    }

    @Test("A cookie another port's page tossed for our host (or any cookie) neither opens nor closes anything: the key's session decides")
    func tossedCookie() async throws {
        let site = try WebTestSite()
        let device = try await site.pairedToken()
        for cookie in ["junk", device, ""] {
            #expect(site.send(site.request("GET", "/api/alarms", device: device, cookie: cookie)).status == 200, "with cookie '\(cookie)'")
            #expect(site.send(site.request("GET", "/api/alarms", cookie: cookie)).status == 401, "cookie '\(cookie)' alone")
        }
    }

    @Test("A session needs the device key's signature of a fresh challenge on our origin; it lasts twelve hours; a device's id is no bearer token")
    func sessions() async throws {
        let site = try WebTestSite()
        let code = try site.registry().newPairingCode()
        let key = try await BrowserKey.make(in: site.folder.path)
        let pair = site.send(site.request("POST", "/api/pair", json: #"{"code": "\#(code.code)", "key": "\#(key.publicKey)"}"#))
        let token = try #require((pair.json as? [String: Any])?["id"] as? String)
        func challenge() throws -> String {
            let asked = site.send(site.request("POST", "/api/session", session: .some(nil), json: #"{"device": "\#(token)"}"#))
            return try #require((asked.json as? [String: Any])?["challenge"] as? String)
        }
        func open(_ challenge: String, signedBy key: BrowserKey, origin: String = WebTestSite.origin) async throws -> HTTPResponse {
            let signature = try await key.sign(BrowserKey.sessionText(challenge: challenge, origin: origin))
            return site.send(
                site.request(
                    "POST", "/api/session", session: .some(nil),
                    json: #"{"device": "\#(token)", "challenge": "\#(challenge)", "signature": "\#(signature)"}"#)
            )
        }
        // Signed on another port's page, or by another key: refused.
        #expect(try await open(try challenge(), signedBy: key, origin: "http://127.0.0.1:18699").status == 403)
        #expect(try await open(try challenge(), signedBy: try await BrowserKey.make(in: site.folder.path)).status == 403)
        // A challenge works once, for a minute.
        let once = try challenge()
        let opened = try await open(once, signedBy: key)
        #expect(opened.status == 201)
        #expect(try await open(once, signedBy: key).status == 403)
        let late = try challenge()
        site.clock.advance(61)
        #expect(try await open(late, signedBy: key).status == 403)
        let session = try #require((opened.json as? [String: Any])?["session"] as? String)
        #expect(site.send(site.request("GET", "/api/alarms", device: token, session: session)).status == 200)
        #expect(site.send(site.request("GET", "/api/alarms", device: token, session: "guessed")).status == 401)
        #expect(site.send(site.request("GET", "/api/alarms", bearer: token)).status == 401, "a browser's id is no script's token")
        site.clock.advance(DeviceSessions.lifetime)
        let ended = site.send(site.request("GET", "/api/alarms", device: token, session: session))
        #expect(ended.status == 401 && ended.errorMessage?.contains("session") == true)
        // Without a key, a browser cannot pair at all.
        let keyless = site.send(site.request("POST", "/api/pair", json: #"{"code": "\#(try site.registry().newPairingCode().code)"}"#))
        #expect(keyless.status == 400 && keyless.errorMessage?.hasPrefix("key:") == true)
    }

    @Test("A code is good for ten minutes and no longer")
    func expiredCode() async throws {
        let site = try WebTestSite()
        let code = try site.registry().newPairingCode()
        site.clock.advance(PairingCode.lifetime + 1)
        let late = site.send(site.request("POST", "/api/pair", json: try await site.pairBody(code.code)))
        #expect(late.status == 403)
        #expect(late.errorMessage?.contains("expired") == true)
    }

    @Test("Wrong codes are limited, five a minute per address and thirty from all; a right code always pairs")
    func guessing() async throws {
        let site = try WebTestSite()
        let code = try site.registry().newPairingCode()
        let guesser = "192.168.1.66"
        for guess in 1...5 {
            #expect(site.send(site.request("POST", "/api/pair", json: try await site.pairBody("WRONG\(guess)"), client: guesser)).status == 403)
        }
        let closed = site.send(site.request("POST", "/api/pair", json: try await site.pairBody("WRONG6"), client: guesser))
        #expect(closed.status == 429)
        #expect(closed.header("Retry-After").flatMap(Int.init).map { (1...60).contains($0) } == true)
        // The right code from that very address (the owner shares it with whoever guesses) pairs.
        #expect(site.send(site.request("POST", "/api/pair", json: try await site.pairBody(code.code), client: guesser)).status == 201)
        // Six addresses guessing five a minute each close pairing to every wrong code, never to a right one.
        for address in 1...6 {
            for guess in 1...5 { _ = site.send(site.request("POST", "/api/pair", json: try await site.pairBody("WRONG\(guess)"), client: "10.0.0.\(address)")) }
        }
        #expect(site.send(site.request("POST", "/api/pair", json: try await site.pairBody("WRONG7"), client: "192.168.1.20")).status == 429)
        let owner = try site.registry().newPairingCode()
        #expect(site.send(site.request("POST", "/api/pair", json: try await site.pairBody(owner.code), client: "192.168.1.20")).status == 201)
        site.clock.advance(61)
        #expect(
            site.send(site.request("POST", "/api/pair", json: try await site.pairBody("WRONG8"), client: guesser)).status == 403,
            "the guessers' minute is over")
    }

    @Test(
        "A change from another site is refused, even with the device's session",
        arguments: [
            ("https://evil.example", true), ("null", true), ("http://127.0.0.1:9999", true), (nil, true), ("http://127.0.0.1:8470", false),
        ] as [(String?, Bool)])
    func crossOrigin(_ origin: String?, _ refused: Bool) async throws {
        let site = try WebTestSite()
        let token = try await site.pairedToken()
        let response = site.send(site.request("POST", "/api/stop", device: token, origin: origin))
        #expect((response.status == 403) == refused, "\(origin ?? "no Origin"): \(response.status)")
        // A pairing from another site is refused before its code is looked at.
        let code = try site.registry().newPairingCode()
        let forged = site.send(site.request("POST", "/api/pair", origin: origin, json: try await site.pairBody(code.code)))
        #expect((forged.status == 403) == refused)
    }

    @Test("A script's token needs no Origin; a token made, listed, and revoked")
    func tokens() async throws {
        let site = try WebTestSite()
        let (device, token) = try site.registry().createToken(name: "backup script")
        #expect(device.kind == .token)
        #expect(site.send(site.request("POST", "/api/stop", bearer: token, origin: nil)).status == 200)
        #expect(site.send(site.request("GET", "/api/devices", bearer: token)).status == 200)
        try site.registry().revoke(String(device.id.uuidString.lowercased().prefix(8)))
        #expect(site.send(site.request("GET", "/api/alarms", bearer: token, origin: nil)).status == 401)
    }

    @Test("A browser names its device, and only its key's signature opens a session")
    func sessionWithoutCookie() async throws {
        let site = try WebTestSite()
        let code = try site.registry().newPairingCode()
        let key = try await BrowserKey.make(in: site.folder.path)
        let pair = site.send(site.request("POST", "/api/pair", json: #"{"code": "\#(code.code)", "key": "\#(key.publicKey)"}"#))
        let id = try #require((pair.json as? [String: Any])?["id"] as? String)
        func ask(_ device: String) -> HTTPResponse { site.send(site.request("POST", "/api/session", json: #"{"device": "\#(device)"}"#)) }
        func open(_ device: String, signedBy signer: BrowserKey) async throws -> HTTPResponse {
            let challenge = try #require((ask(device).json as? [String: Any])?["challenge"] as? String)
            let signature = try await signer.sign(BrowserKey.sessionText(challenge: challenge, origin: WebTestSite.origin))
            return site.send(
                site.request("POST", "/api/session", json: #"{"device": "\#(device)", "challenge": "\#(challenge)", "signature": "\#(signature)"}"#))
        }
        // Naming a device gives nothing without its key; an unknown device gets no challenge at all.
        #expect(try await open(id, signedBy: try await BrowserKey.make(in: site.folder.path)).status == 403)
        #expect(ask(UUID().uuidString.lowercased()).status == 401 && ask("not an id").status == 401)
        #expect(site.send(site.request("POST", "/api/session", json: "{}")).status == 401)
        let opened = try await open(id, signedBy: key)
        #expect(opened.status == 201)
        let session = try #require((opened.json as? [String: Any])?["session"] as? String)
        #expect(site.send(site.request("GET", "/api/alarms", session: session)).status == 200, "the session alone, as the page sends it")
        // Revoked: the session ends with the device.
        try site.registry().revoke(id)
        #expect(site.send(site.request("GET", "/api/alarms", session: session)).status == 401)
        #expect(ask(id).status == 401)
    }

    @Test(
        "The page loads nothing from outside the machine: no address elsewhere in its HTML, script or style",
        arguments: ["/pair", "/style.css", "/", "/sw.js", "/manifest.webmanifest"] + PageAssets.modules.map(\.path))
    func nothingFromElsewhere(_ path: String) async throws {
        let site = try WebTestSite()
        let token = try await site.pairedToken()
        let response = site.send(site.request("GET", path, device: token))
        guard case .data(let data) = response.body else { throw WebTestFailure("\(path) has no body") }
        let text = String(decoding: data, as: UTF8.self)
        #expect(response.status == 200 && !text.isEmpty)
        #expect(text.range(of: #"(https?:)?//[A-Za-z0-9.-]+\.[A-Za-z]"#, options: .regularExpression) == nil, "\(path) names another host")
        #expect(!text.contains("innerHTML") && !text.contains("eval("), "\(path): text only through textContent")
    }

    @Test("Every answer carries the Content-Security-Policy and no-sniff headers, a refusal too")
    func securityHeaders() async throws {
        let site = try WebTestSite()
        let token = try await site.pairedToken()
        for response in [
            site.send(site.request("GET", "/pair")), site.send(site.request("GET", "/api/alarms")),
            site.send(site.request("GET", "/api/alarms", device: token)), site.send(site.request("GET", "/nothing")),
        ] {
            let policy = try #require(response.header("Content-Security-Policy"))
            #expect(policy.contains("default-src 'self'") && policy.contains("frame-ancestors 'none'"))
            #expect(response.header("X-Content-Type-Options") == "nosniff")
        }
    }
}
