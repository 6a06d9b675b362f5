"""make test-ha: the bridge (`voicealarm mqtt`) with a real Home Assistant core (2025.4.4, under
HA_PYTHON) and a real Mosquitto, through ha_harness. Prints PASS/FAIL lines and the timings; exit 0
only when every check passes.

Usage: VOICEALARM_SAMPLES=SampleAudio HA_PYTHON=.build/havenv/bin/python home_assistant.py BINARY
"""
import json, os, signal, socket, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ha_harness import Broker, HomeAssistant  # noqa: E402

BIN = sys.argv[1]
WORK = tempfile.mkdtemp(prefix="voicealarm-ha-")
DATA = os.path.join(WORK, "data")
NODE = "".join(c if c.isalnum() else "_" for c in socket.gethostname().split(".")[0].lower())[:40] or "machine"
failures, timings = [], {}


def check(name, ok, detail=""):
    print("%s %s%s" % ("PASS" if ok else "FAIL", name, "" if ok else ": %s" % detail), flush=True)
    if not ok:
        failures.append(name)


def env():
    e = dict(os.environ, TZ="UTC", XDG_RUNTIME_DIR=os.path.join(WORK, "run"))
    e.pop("ALSA_CONFIG_PATH", None)
    return e


def va(*args):
    r = subprocess.run([BIN, "--data-dir", DATA, *args], capture_output=True, text=True, env=env(), timeout=120)
    if r.returncode != 0:
        raise SystemExit("voicealarm %s: %s" % (" ".join(args), r.stderr))
    return r.stdout.strip()


def wait(fn, timeout):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = fn()
        if value:
            return value
        time.sleep(0.1)
    return None


os.makedirs(os.path.join(WORK, "run"), mode=0o700)
subprocess.run(["pulseaudio", "-n", "--daemonize=yes", "--exit-idle-time=-1", "-L", "module-native-protocol-unix",
                "-L", "module-null-sink sink_name=spk", "-L", "module-always-sink"], env=env(), check=True, capture_output=True)
wait(lambda: subprocess.run(["pactl", "info"], env=env(), capture_output=True).returncode == 0, 10)
clip = va("clip", "import", os.path.join(os.environ["VOICEALARM_SAMPLES"], "calm.wav"), "-q")
va("manifesto", "set", clip, "-q")
alarm = va("alarm", "add", "manifesto", "--at", "07:00", "--days", "mon,tue,wed,thu,fri", "--label", "Morning", "-q")
hexid = alarm.replace("-", "")
secret = os.path.join(WORK, "secret")
bridge = None
try:
    with Broker(user="va") as broker, HomeAssistant(broker=broker) as ha:
        timings.update({k: round(v, 2) for k, v in ha.timings.items()})
        with open(secret, "w") as f:
            f.write(broker.password + "\n")
        os.chmod(secret, 0o600)
        t0 = time.monotonic()
        bridge = subprocess.Popen([BIN, "--data-dir", DATA, "mqtt", "--broker", "%s:%d" % (broker.host, broker.port), "--username", "va",
                                   "--password-file", secret], env=env(), stderr=subprocess.DEVNULL)
        uid = lambda key: "voicealarm_%s_%s_%s" % (NODE, hexid, key)
        machine = lambda key: "voicealarm_%s_%s" % (NODE, key)
        wanted = {uid(k): None for k in ["on", "voice", "next", "state", "skip", "ring", "time", "event"]}
        wanted.update({machine(k): None for k in ["problems", "ringing", "next", "last_command", "stop", "snooze", "up"]})
        for unique in wanted:
            wanted[unique] = ha.wait_for_unique_id(unique, timeout=40)
        timings["bridge start → every entity in HA"] = round(time.monotonic() - t0, 2)
        check("every entity appears in /api/states", all(wanted.values()), [u for u, s in wanted.items() if not s])
        state = lambda u: (ha.wait_for_unique_id(u, timeout=5) or {}).get("state")
        check("switches on", state(uid("on")) == "on" and state(uid("voice")) == "on", (state(uid("on")), state(uid("voice"))))
        check("the alarm's state sensor says scheduled", state(uid("state")) == "scheduled", state(uid("state")))
        check("its time is 07:00", state(uid("time")) == "07:00", state(uid("time")))
        next_ring = state(uid("next")) or ""
        check("its next ring is a UTC timestamp at 07:00", next_ring.endswith("T07:00:00+00:00"), next_ring)
        check("the machine's next alarm agrees", state(machine("next")) == next_ring, state(machine("next")))
        check("nothing rings", state(machine("ringing")) == "off", state(machine("ringing")))
        device = ha.device_for("voicealarm_%s_%s" % (NODE, hexid))
        check("the alarm is a device named by its label, under the machine", bool(device) and device.get("name") == "Morning" and device.get("via_device_id"), device)

        # Stop in Home Assistant ends a ring.
        ring = subprocess.Popen([BIN, "--data-dir", DATA, "ring", alarm, "--max-seconds", "60"], env=env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        t1 = time.monotonic()
        ringing = ha.wait_for_unique_id(machine("ringing"), timeout=20, state="on")
        timings["ring start → ringing on in HA"] = round(time.monotonic() - t1, 2)
        check("HA sees the ring", bool(ringing))
        stop_id = ha.entity_id_for(machine("stop"))
        t2 = time.monotonic()
        ha.call_service("button", "press", {"entity_id": stop_id})
        try:
            ring.wait(timeout=20)
            timings["Stop pressed in HA → ring ended"] = round(time.monotonic() - t2, 2)
        except subprocess.TimeoutExpired:
            ring.kill()
        check("pressing Stop in HA ends the ring", ring.returncode is not None and time.monotonic() - t2 < 20)
        check("ringing is off again", bool(ha.wait_for_unique_id(machine("ringing"), timeout=10, state="off")))

        # The event entity records the ring.
        event_id = ha.entity_id_for(uid("event"))
        got = wait(lambda: (lambda s: s if s and s.get("attributes", {}).get("event_type") in ("rang", "stopped") else None)(ha.state(event_id)), 10)
        check("the event entity records the ring", bool(got), ha.state(event_id))
        rang = [e for e in ha.events if e.get("event_type") == "state_changed" and (e.get("data") or {}).get("entity_id") == event_id
                and ((e["data"].get("new_state") or {}).get("attributes") or {}).get("event_type") == "rang"]
        check("a rang event passed through it, with the sound", bool(rang) and rang[0]["data"]["new_state"]["attributes"].get("sound") == "voice",
              rang[:1])

        # The alarm's switch turned off in HA: alarm list says off.
        t3 = time.monotonic()
        ha.call_service("switch", "turn_off", {"entity_id": ha.entity_id_for(uid("on"))})
        off = wait(lambda: not json.loads(va("alarm", "list", "--json"))[0]["on"], 15)
        timings["switch off in HA → alarm list says off"] = round(time.monotonic() - t3, 2)
        check("turning the switch off in HA makes alarm list say off", bool(off))
        check("HA shows the switch off and the state off",
              bool(ha.wait_for_unique_id(uid("on"), timeout=10, state="off")) and bool(ha.wait_for_unique_id(uid("state"), timeout=10, state="off")))

        # The time changed in HA: an edit.
        ha.call_service("text", "set_value", {"entity_id": ha.entity_id_for(uid("time")), "value": "06:15"})
        edited = wait(lambda: json.loads(va("alarm", "list", "--json"))[0]["time"] == "06:15", 15)
        check("setting the time in HA edits the alarm, same id", bool(edited) and json.loads(va("alarm", "list", "--json"))[0]["id"] == alarm)

        # Home Assistant restarts: the entities come back from what the bridge publishes on its birth.
        t4 = time.monotonic()
        ha.restart()
        back = ha.wait_for_unique_id(uid("time"), timeout=60, state="06:15")
        timings["HA restart → entities back"] = round(time.monotonic() - t4, 2)
        check("after HA restarts every entity is back with its state", bool(back))
        errors = [line for line in ha.log_lines("ERROR", "mqtt")]
        check("HA logs no MQTT error", not errors, errors[:3])
finally:
    if bridge:
        bridge.send_signal(signal.SIGTERM)
        bridge.wait(timeout=15)
    try:
        os.kill(int(open(os.path.join(WORK, "run/pulse/pid")).read().strip()), signal.SIGTERM)
    except (OSError, ValueError):
        pass
print("timings: " + json.dumps(timings))
print("home-assistant: %d failed" % len(failures))
sys.exit(1 if failures else 0)
