"""The Home Assistant bridge (`voicealarm mqtt`) against a real Mosquitto, with paho-mqtt standing
in for Home Assistant. Prints one JSON object of what it measured; HomeBridgeTests asserts on it.

Usage: VOICEALARM_SAMPLES=SampleAudio home_bridge.py BINARY WORKDIR SCENARIO   (SCENARIO: follow | refusals | tls)

follow: discovery, every command, every event (pre_alarm and rang from a daemon on a fake clock,
both processes under libfaketime from the same instant), the ring on time while the broker is
stopped and the bridge SIGSTOPped, recovery after the broker is killed and started again (no event
lost), Home Assistant's birth, bad payloads, a removed alarm's device.
refusals: wrong credentials, a password file others may read, an anonymous broker, no user name,
a broker that is not there (retried, said, exit 0 on SIGTERM).
tls: the broker over TLS with the right CA, and refused with another.
"""
import glob, json, os, signal, socket, subprocess, sys, threading, time, uuid
import paho.mqtt.client as mqtt

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ha_harness import Broker  # noqa: E402

BIN, WORK, SCENARIO = sys.argv[1], sys.argv[2], sys.argv[3]
DATA = os.path.join(WORK, "data")
FAKE_START = time.strftime("%Y-%m-%d", time.gmtime(time.time() + 86400)) + " 06:59:30"
NODE = "".join(c if c.isalnum() else "_" for c in socket.gethostname().split(".")[0].lower())[:40] or "machine"
BASE = "voicealarm/" + NODE
result = {}


def env(pulse=False):
    """ALSA's null device (a ring plays as fast as it decodes), or with pulse a PulseAudio null sink
    (a ring takes its real time)."""
    e = dict(os.environ, TZ="UTC", ALSA_CONFIG_PATH=os.path.join(WORK, "asound.conf"))
    if pulse:
        e.pop("ALSA_CONFIG_PATH")
        e["XDG_RUNTIME_DIR"] = os.path.join(WORK, "run")
    e.pop("LD_PRELOAD", None)
    return e


def start_pulse():
    os.makedirs(os.path.join(WORK, "run"), mode=0o700, exist_ok=True)
    subprocess.run(["pulseaudio", "-n", "--daemonize=yes", "--exit-idle-time=-1", "--disallow-exit", "-L", "module-native-protocol-unix",
                    "-L", "module-null-sink sink_name=spk", "-L", "module-always-sink"], env=env(True), check=True, timeout=30)
    for _ in range(50):
        if subprocess.run(["pactl", "info"], env=env(True), capture_output=True).returncode == 0:
            break
        time.sleep(0.1)
    subprocess.run(["pactl", "set-default-sink", "spk"], env=env(True), capture_output=True)


def stop_pulse():
    try:
        os.kill(int(open(os.path.join(WORK, "run/pulse/pid")).read().strip()), signal.SIGTERM)
    except (OSError, ValueError):
        pass


def va(*args, check=True, timeout=120):
    r = subprocess.run([BIN, "--data-dir", DATA, *args], capture_output=True, text=True, env=env(), timeout=timeout)
    if check and r.returncode != 0:
        raise SystemExit("voicealarm %s failed (%d): %s" % (" ".join(args), r.returncode, r.stderr))
    return r


def remove_faketime_leftovers():
    for path in glob.glob("/dev/shm/sem.faketime_sem_*") + glob.glob("/dev/shm/faketime_shm_*"):
        pid = int(path.rsplit("_", 1)[1])
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            try:
                os.unlink(path)
            except FileNotFoundError:
                pass


class Proc:
    """A voicealarm process (under libfaketime's wrapper when fake), its stderr collected."""

    def __init__(self, args, fake=False, pulse=False):
        remove_faketime_leftovers()
        command = (["/usr/bin/faketime", "-f", "@" + FAKE_START] if fake else []) + [BIN, "--data-dir", DATA, *args]
        self.p = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env(pulse))
        self.lines = []
        threading.Thread(target=self._read, daemon=True).start()
        self.fake = fake

    def _read(self):
        for line in self.p.stderr:
            self.lines.append((time.monotonic(), line.rstrip("\n")))

    @property
    def pid(self):
        """The program's own pid (the wrapper's child when fake)."""
        if not self.fake:
            return self.p.pid
        for _ in range(100):
            try:
                children = open("/proc/%d/task/%d/children" % (self.p.pid, self.p.pid)).read().split()
                if children:
                    return int(children[0])
            except FileNotFoundError:
                return None
            time.sleep(0.05)
        return None

    def signal(self, sig):
        pid = self.pid
        if pid:
            os.kill(pid, sig)

    def stop(self):
        if self.p.poll() is None:
            self.signal(signal.SIGTERM)
            try:
                self.p.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.p.kill()
                self.p.wait()
        return self.p.returncode

    def said(self, text):
        return [line for _, line in self.lines if text in line]

    def wait_said(self, text, timeout):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.said(text):
                return True
            time.sleep(0.05)
        return False


class HA:
    """paho-mqtt in Home Assistant's place: subscribes to everything, keeps what arrives."""

    def __init__(self, broker, user="va", password=None, tls_ca=None, port=None):
        self.messages = []
        self.lock = threading.Lock()
        self.c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="ha-" + uuid.uuid4().hex[:6])
        if user:
            self.c.username_pw_set(user, password or broker.password)
        if tls_ca:
            self.c.tls_set(ca_certs=tls_ca)
        self.c.on_message = self._on_message
        self.connects = 0
        self.c.on_connect = self._on_connect
        self.c.reconnect_delay_set(min_delay=1, max_delay=1)
        self.c.connect(broker.host, port or broker.port)
        self.c.loop_start()

    def _on_connect(self, client, userdata, flags, rc, properties):
        client.subscribe([("homeassistant/#", 1), (BASE + "/#", 1)])
        self.connects += 1

    def _on_message(self, client, userdata, m):
        with self.lock:
            self.messages.append((time.monotonic(), m.topic, m.payload, m.retain))

    def mark(self):
        return time.monotonic()

    def wait(self, topic, payload=None, since=0, timeout=10, pred=None):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            with self.lock:
                for t, top, pay, _ in self.messages:
                    if t >= since and top == topic and (payload is None or pay == payload) and (pred is None or pred(pay)):
                        return t, pay
            time.sleep(0.02)
        return None

    def latest(self, topic):
        with self.lock:
            found = [pay for _, top, pay, _ in self.messages if top == topic]
        return found[-1] if found else None

    def publish(self, topic, payload):
        self.c.publish(topic, payload, qos=1).wait_for_publish(5)

    def close(self):
        self.c.loop_stop()
        self.c.disconnect()


def alarm_topic(aid, part):
    return "%s/alarm/%s/%s" % (BASE, aid, part)


def config_topic(component, obj):
    return "homeassistant/%s/voicealarm_%s/%s/config" % (component, NODE, obj)


def alarms():
    return {a["id"]: a for a in json.loads(va("alarm", "list", "--json").stdout)}


def event_wait(ha, aid, kind, since, timeout=15, pred=None):
    def match(p):
        try:
            doc = json.loads(p)
        except ValueError:
            return False
        return doc.get("event_type") == kind and (pred is None or pred(doc))
    got = ha.wait(alarm_topic(aid, "event"), since=since, timeout=timeout, pred=match)
    return (got[0], json.loads(got[1])) if got else (None, None)


def journal_lines():
    try:
        return [json.loads(line) for line in open(os.path.join(DATA, "alarm-events.jsonl")) if line.strip()]
    except FileNotFoundError:
        return []


def setup_library():
    os.makedirs(WORK, exist_ok=True)
    with open(os.path.join(WORK, "asound.conf"), "w") as f:
        f.write('pcm.!default { type null }\nctl.!default { type hw card 99 }\n')
    clip = va("clip", "import", os.path.join(os.environ["VOICEALARM_SAMPLES"], "calm.wav"), "-q")
    va("manifesto", "set", clip.stdout.strip(), "-q")
    first = va("alarm", "add", "manifesto", "--at", "07:00", "--days", "mon,tue,wed,thu,fri,sat,sun", "--label", "Morning", "-q").stdout.strip()
    second = va("alarm", "add", "manifesto", "--at", "09:30", "--days", "sat,sun", "--snooze", "5", "-q").stdout.strip()
    # Rings within the bridge's five-minute pre-alarm lead on the real clock (the bridge's own), and
    # well after the scenario's end (about a minute), so no daemon here rings it.
    soon = time.strftime("%H:%M", time.gmtime(time.time() + 240))
    third = va("alarm", "add", "manifesto", "--at", soon, "--label", "Soon", "-q").stdout.strip()
    secret = os.path.join(WORK, "secret")
    return first, second, third, secret


def write_secret(path, password, mode=0o600):
    with open(path, "w") as f:
        f.write(password + "\n")
    os.chmod(path, mode)


def follow():
    first, second, third, secret = setup_library()
    with Broker(user="va") as broker:
        write_secret(secret, broker.password)
        ha = HA(broker)
        bridge = Proc(["mqtt", "--broker", "%s:%d" % (broker.host, broker.port), "--username", "va", "--password-file", secret, "--pre-alarm", "5"])
        daemon = Proc(["daemon", "--poll-seconds", "1", "--max-ring-seconds", "2"], fake=True)
        started = time.monotonic()
        # Discovery: every entity of both devices, retained.
        hexid = first.replace("-", "")
        wanted = [config_topic("switch", hexid + "_on"), config_topic("switch", hexid + "_voice"), config_topic("sensor", hexid + "_next"),
                  config_topic("sensor", hexid + "_state"), config_topic("button", hexid + "_skip"), config_topic("button", hexid + "_ring"),
                  config_topic("text", hexid + "_time"), config_topic("event", hexid + "_event"),
                  config_topic("binary_sensor", "problems"), config_topic("binary_sensor", "ringing"), config_topic("sensor", "next"),
                  config_topic("button", "stop"), config_topic("button", "snooze"), config_topic("button", "up")]
        result["discovery"] = {t.split("/")[1] + "/" + t.split("/")[3]: ha.wait(t, timeout=15) is not None for t in wanted}
        result["discoverySeconds"] = round(time.monotonic() - started, 2)
        configs = {t: json.loads(ha.latest(t)) for t in wanted if ha.latest(t)}
        result["uniqueIDs"] = sorted(c.get("unique_id") for c in configs.values())
        result["labelInTopics"] = any("Morning" in t for _, t, _, _ in ha.messages)
        text_config = configs.get(config_topic("text", hexid + "_time"), {})
        result["timePattern"] = text_config.get("pattern")
        result["eventTypes"] = configs.get(config_topic("event", hexid + "_event"), {}).get("event_types")
        # The states follow the configs: each is waited for (a busy machine delivers them after
        # the last config), then read as it stands.
        for p, want in [("on", b"ON"), ("voice", b"ON"), ("next", None), ("state", b"scheduled"), ("time", b"07:00")]:
            ha.wait(alarm_topic(first, p), payload=want, timeout=15)
        ha.wait(BASE + "/availability", payload=b"online", timeout=15)
        result["states"] = {p: (ha.latest(alarm_topic(first, p)) or b"").decode() for p in ["on", "voice", "next", "state", "time"]}
        result["availability"] = (ha.latest(BASE + "/availability") or b"").decode()
        # pre_alarm: the third alarm rings within the lead from the start.
        t, doc = event_wait(ha, third, "pre_alarm", 0, timeout=15)
        result["preAlarm"] = doc
        # The ring on time while the broker is down and the bridge stopped.
        bridge.signal(signal.SIGSTOP)
        broker.stop()
        rang = None
        for _ in range(600):
            rang = next((e for e in journal_lines() if e["kind"] == "stopped" and e["alarm"].lower() == first), None)
            if rang:
                break
            time.sleep(0.1)
        ring_line = next((line for line in open(os.path.join(DATA, "events.log")) if "ringing alarm " + first in line), "")
        result["rangWhileAway"] = ring_line.split(" ")[0] if ring_line else None
        connects = ha.connects
        broker.start()
        for _ in range(200):  # Home Assistant back first: events are not retained, for it as for any client
            if ha.connects > connects:
                break
            time.sleep(0.05)
        time.sleep(0.3)
        bridge.signal(signal.SIGCONT)
        back = time.monotonic()
        t, doc = event_wait(ha, first, "rang", back - 0.001, timeout=40)
        result["rangAfterRecovery"] = doc
        t2, doc2 = event_wait(ha, first, "stopped", back - 0.001, timeout=10)
        result["stoppedAfterRecovery"] = doc2
        result["recoverySeconds"] = round(t - back, 2) if t else None
        result["rediscovered"] = ha.wait(config_topic("switch", hexid + "_on"), since=back, timeout=20) is not None
        # An event's way to Home Assistant: from the journal's line to the broker, while connected.
        mark = time.monotonic()
        size = os.path.getsize(os.path.join(DATA, "alarm-events.jsonl"))
        ring = subprocess.Popen([BIN, "--data-dir", DATA, "ring", second, "--max-seconds", "1"], env=env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        appended = None
        while appended is None and time.monotonic() - mark < 20:
            if os.path.getsize(os.path.join(DATA, "alarm-events.jsonl")) > size:
                appended = time.monotonic()
            time.sleep(0.005)
        t, doc = event_wait(ha, second, "rang", mark, timeout=10)
        ring.wait(timeout=30)
        result["eventLatency"] = round(t - appended, 3) if t and appended else None
        result["rangDirect"] = doc

        def command(topic, payload, state_topic=None, expect=None, timeout=10):
            m = time.monotonic()
            ha.publish(topic, payload)
            got_state = ha.wait(state_topic, payload=expect, since=m, timeout=timeout) if state_topic else None
            said = ha.wait(BASE + "/last_command", since=m, timeout=timeout)
            return {"state": got_state[1].decode() if got_state else None, "said": said[1].decode() if said else None}

        # Ring it now goes through a daemon on the bridge's clock (a test ring is asked for now).
        result["fakeDaemonExit"] = daemon.stop()
        start_pulse()
        daemon = Proc(["daemon", "--poll-seconds", "1", "--max-ring-seconds", "20"], pulse=True)
        daemon.wait_said("daemon runs", 20)
        c = {}
        c["off"] = command(alarm_topic(first, "on/set"), "OFF", alarm_topic(first, "on"), b"OFF")
        c["offListed"] = alarms()[first]["on"]
        c["offState"] = (ha.latest(alarm_topic(first, "state")) or b"").decode()
        c["offAgain"] = command(alarm_topic(first, "on/set"), "OFF")
        c["on"] = command(alarm_topic(first, "on/set"), "ON", alarm_topic(first, "on"), b"ON")
        c["voiceOff"] = command(alarm_topic(first, "voice/set"), "OFF", alarm_topic(first, "voice"), b"OFF")
        c["voiceListed"] = alarms()[first]["voice"]
        c["voiceOn"] = command(alarm_topic(first, "voice/set"), "ON", alarm_topic(first, "voice"), b"ON")
        c["time"] = command(alarm_topic(first, "time/set"), "06:30", alarm_topic(first, "time"), b"06:30")
        c["timeListed"] = alarms()[first]["time"]
        c["idAfterEdit"] = first in alarms()
        c["skip"] = command(alarm_topic(first, "skip/press"), "PRESS", alarm_topic(first, "state"), b"skipped")
        c["skippedListed"] = alarms()[first].get("skipped")
        c["skipAgain"] = command(alarm_topic(first, "skip/press"), "PRESS")
        c["stopNothing"] = command(BASE + "/stop/press", "PRESS")
        c["upNothing"] = command(BASE + "/up/press", "PRESS")
        c["snoozeNothing"] = command(BASE + "/snooze/press", "PRESS")
        m = time.monotonic()
        c["ringNow"] = command(alarm_topic(second, "ring/press"), "PRESS")
        t, doc = event_wait(ha, second, "rang", m, timeout=40)
        c["ringNowEvent"] = doc
        c["ringingSeen"] = ha.wait(BASE + "/ringing", payload=b"ON", since=m, timeout=20) is not None
        c["ringingState"] = (ha.wait(alarm_topic(second, "state"), payload=b"ringing", since=m, timeout=10) or (0, b""))[1].decode()
        c["snoozeTest"] = command(BASE + "/snooze/press", "PRESS")
        c["stop"] = command(BASE + "/stop/press", "PRESS")
        t, doc = event_wait(ha, second, "stopped", m, timeout=20)
        c["stoppedEvent"] = doc
        result["commands"] = c
        # Bad payloads: ignored, one log line each, nothing changed.
        before = va("alarm", "list", "--json").stdout
        bad = [(alarm_topic(first, "time/set"), "25:00"), (alarm_topic(first, "time/set"), "7:5"), (alarm_topic(first, "on/set"), "x" * 200),
               (alarm_topic(first, "on/set"), b"\xff\xfeON"), (alarm_topic(str(uuid.uuid4()), "on/set"), "OFF"),
               (alarm_topic(first, "label/set"), "Hi"), (alarm_topic(first.upper(), "on/set"), "OFF")]
        lines_before = len(bridge.lines)
        for topic, payload in bad:
            ha.publish(topic, payload)
        time.sleep(2)
        result["badIgnoredLines"] = [line for _, line in bridge.lines[lines_before:]]
        result["badUnchanged"] = va("alarm", "list", "--json").stdout == before
        # Home Assistant's birth: state again.
        m = time.monotonic()
        ha.publish("homeassistant/status", "online")
        result["birthRepublished"] = ha.wait(alarm_topic(first, "state"), since=m, timeout=10) is not None
        # A removed alarm removes its device: empty retained configs.
        m = time.monotonic()
        va("alarm", "remove", second, "-q")
        hex2 = second.replace("-", "")
        got = ha.wait(config_topic("switch", hex2 + "_on"), payload=b"", since=m, timeout=10)
        result["removedCleared"] = got is not None
        result["bridgeExit"] = bridge.stop()
        result["offlineAfterStop"] = (ha.latest(BASE + "/availability") or b"").decode()
        result["daemonExit"] = daemon.stop()
        stop_pulse()
        result["bridgeSaid"] = [line for _, line in bridge.lines][:40]
        ha.close()


def refusals():
    first, second, third, secret = setup_library()
    out = {}
    with Broker(user="va") as broker:
        write_secret(secret, "wrong-password")
        r = va("mqtt", "--broker", "%s:%d" % (broker.host, broker.port), "--username", "va", "--password-file", secret, check=False)
        out["wrongPassword"] = {"status": r.returncode, "stderr": r.stderr.strip().splitlines()}
        out["nothingRemembered"] = not os.path.exists(os.path.join(DATA, "mqtt.json"))
        write_secret(secret, broker.password, 0o644)
        r = va("mqtt", "--broker", "%s:%d" % (broker.host, broker.port), "--username", "va", "--password-file", secret, check=False)
        out["exposedPassword"] = {"status": r.returncode, "stderr": r.stderr.strip().splitlines()}
        r = va("mqtt", "--broker", "%s:%d" % (broker.host, broker.port), check=False)
        out["noUser"] = {"status": r.returncode, "stderr": r.stderr.strip().splitlines()}
        r = va("mqtt", "--broker", "no such:host", "--username", "va", check=False)
        out["badBroker"] = {"status": r.returncode, "stderr": r.stderr.strip().splitlines()}
        r = va("mqtt", "--broker", "%s:%d" % (broker.host, broker.port), "--username", "va", "--topic-base", "a/#", check=False)
        out["wildcardBase"] = {"status": r.returncode, "stderr": r.stderr.strip().splitlines()}
    with Broker(user="va", allow_anonymous=True) as anonymous:
        write_secret(secret, anonymous.password)
        r = va("mqtt", "--broker", "%s:%d" % (anonymous.host, anonymous.port), "--username", "va", "--password-file", secret, check=False)
        out["anonymousBroker"] = {"status": r.returncode, "stderr": r.stderr.strip().splitlines()}
        allowed = Proc(["mqtt", "--broker", "%s:%d" % (anonymous.host, anonymous.port), "--username", "va", "--password-file", secret,
                        "--allow-anonymous-broker"])
        out["allowedConnects"] = allowed.wait_said("connected to the broker", 15)
        out["allowedWarned"] = allowed.said("warning")
        out["allowedExit"] = allowed.stop()
        out["remembered"] = json.load(open(os.path.join(DATA, "mqtt.json")))
        mode = os.stat(os.path.join(DATA, "mqtt.json")).st_mode & 0o777
        out["rememberedMode"] = oct(mode)
        # Remembered: no options at all connect the same way.
        again = Proc(["mqtt"])
        out["rememberedConnects"] = again.wait_said("connected to the broker", 15)
        again.stop()
    # A broker that is not there: retried, said once, exit 0 on SIGTERM.
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    gone = Proc(["mqtt", "--broker", "127.0.0.1:%d" % port, "--username", "va", "--password-file", secret])
    time.sleep(4)
    out["unreachableSaid"] = [line for _, line in gone.lines]
    out["unreachableRunning"] = gone.p.poll() is None
    out["unreachableExit"] = gone.stop()
    result.update(out)


def tls():
    first, second, third, secret = setup_library()
    certs = os.path.join(WORK, "certs")
    os.makedirs(certs)

    def ssl(*args):
        subprocess.run(["openssl", *args], check=True, capture_output=True, cwd=certs)
    for ca in ["ca", "other"]:
        ssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", ca + ".key", "-out", ca + ".pem",
            "-days", "2", "-subj", "/CN=Test " + ca)
    ssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", "broker.key", "-out", "broker.csr", "-subj", "/CN=127.0.0.1")
    with open(os.path.join(certs, "ext"), "w") as f:
        f.write("subjectAltName=IP:127.0.0.1\n")
    ssl("x509", "-req", "-in", "broker.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", "broker.pem", "-days", "2", "-extfile", "ext")
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    tls_port = s.getsockname()[1]
    s.close()
    extra = "listener %d 127.0.0.1\ncafile %s\ncertfile %s\nkeyfile %s" % (
        tls_port, os.path.join(certs, "ca.pem"), os.path.join(certs, "broker.pem"), os.path.join(certs, "broker.key"))
    with Broker(user="va", extra_conf=extra) as broker:
        write_secret(secret, broker.password)
        ha = HA(broker, tls_ca=os.path.join(certs, "ca.pem"), port=tls_port)
        bridge = Proc(["mqtt", "--broker", "127.0.0.1:%d" % tls_port, "--tls-ca", os.path.join(certs, "ca.pem"), "--username", "va",
                       "--password-file", secret])
        result["tlsConnects"] = bridge.wait_said("connected to the broker", 15)
        result["tlsState"] = (ha.wait(alarm_topic(first, "state"), timeout=15) or (0, b""))[1].decode()
        bridge.stop()
        ha.close()
        # A bridge still running after a minute took the refusal for a passing loss: what it said is kept.
        try:
            r = va("mqtt", "--broker", "127.0.0.1:%d" % tls_port, "--tls-ca", os.path.join(certs, "other.pem"), "--username", "va",
                   "--password-file", secret, check=False, timeout=60)
            result["otherCA"] = {"status": r.returncode, "stderr": r.stderr.strip().splitlines()}
        except subprocess.TimeoutExpired as running:
            said = running.stderr.decode() if isinstance(running.stderr, bytes) else (running.stderr or "")
            result["otherCA"] = {"status": "still running after 60 s", "stderr": said.strip().splitlines()}


try:
    {"follow": follow, "refusals": refusals, "tls": tls}[SCENARIO]()
finally:
    print(json.dumps(result, default=str))
