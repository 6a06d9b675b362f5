#!/usr/bin/env python3
"""The web rows of make bench (a benchmark, not a test), each against a peer measured in the same run:

1. The page on loopback, in headless Chromium: from navigation until the alarm list is drawn
   (every API call the page makes answered), median of 5 loads; against the same page's HTML,
   scripts and style served as static files by Python's http.server (the page with no library
   behind it: what the API and the library cost; its API requests fail at once, so it stays put).
2. The page's status poll (the page asks every 3 s while it is in front): GET /api/status with a
   token, its median wall time and the server's CPU time, its children's included (the
   examination behind the health spawns `systemctl --user`), for a poll that examines the machine
   and one the kept examination answers, and what a page in front costs the server in an hour;
   beside `alarm list --json` through the command line, a whole read of the same library.
3. A 30-second recording (WebM/Opus, what a browser's MediaRecorder makes) from upload to
   rebuilt ringtone: POST /api/clips, then PUT /api/manifesto with it, which rebuilds the
   manifesto alarm's ringtone (cut at the 29 s cap) and re-schedules it; median of 3, against
   the same two steps through the command line (`clip import`, `manifesto set`) on a copy of the
   same library.

4. Live updates: the server's CPU time over a quiet minute with 1 and with 10 tabs open, each
   either polling GET /api/status every 3 s (the page before it went live) or holding the long
   poll GET /api/state?after=VERSION (asking again after each answer), as CPU seconds an hour;
   and how long a change at the terminal (`alarm add`) takes to reach a waiting tab.

Usage: bench_web.py VOICEALARM WORK_DIR VENV_PYTHON"""
import json, os, re, shutil, signal, ssl, statistics, subprocess, sys, threading, time, urllib.request

# The TLS context for each server's address: its library's authority, as a person's trusted browser has it.
CONTEXTS = {}

binary, work, venv_python = sys.argv[1], sys.argv[2], sys.argv[3]


def run(data, *args):
    return subprocess.run([binary, "--data-dir", data, "-q", *args], check=True, capture_output=True, text=True).stdout.strip()


def serve(data):
    process = subprocess.Popen([binary, "--data-dir", data, "--json", "serve", "--listen", "127.0.0.1:0"],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    text = ""
    while True:
        line = process.stdout.readline()
        if not line:
            sys.exit("bench_web: serve ended before it listened")
        text += line
        try:
            document = json.loads(text)
        except json.JSONDecodeError:
            continue
        CONTEXTS[document["url"]] = ssl.create_default_context(cafile=os.path.join(data, "web", "authority.pem"))
        return process, document


def request(method, url, token, origin, body=None, content_type="application/json"):
    headers = {"Authorization": "Bearer " + token, "Origin": origin}
    if body is not None:
        headers["Content-Type"] = content_type
    request_ = urllib.request.Request(url, data=body, method=method, headers=headers)
    with urllib.request.urlopen(request_, timeout=120, context=CONTEXTS.get(origin)) as response:
        return json.loads(response.read() or b"null")


def live_rows(window=60.0):
    """Server CPU over a quiet `window` with tabs open, polling as the page did or waiting as it
    does now, as seconds an hour; then the time from a change at the terminal to a waiting tab."""
    data = os.path.join(work, "live")
    library(data)
    server, document = serve(data)
    token = run(data, "token", "create", "bench")
    base = document["url"]

    def tabs(count, live):
        stop = threading.Event()

        def tab():
            version = None
            while not stop.is_set():
                if live:
                    answer = request("GET", base + "/api/state" + (f"?after={version}" if version else ""), token, base)
                    version = answer["version"] if answer else version
                else:
                    request("GET", base + "/api/status", token, base)
                    stop.wait(3)
        threads = [threading.Thread(target=tab, daemon=True) for _ in range(count)]
        request("GET", base + "/api/state", token, base)   # the token's last-seen written before the window
        time.sleep(1)
        cpu = cpu_seconds(server.pid)
        for thread in threads:
            thread.start()
        time.sleep(window)
        used = cpu_seconds(server.pid) - cpu
        stop.set()
        for thread in threads:
            thread.join(timeout=30)
        return used / window * 3600

    def reach():
        version = request("GET", base + "/api/state", token, base)["version"]
        answered = {}

        def wait():
            answered["state"] = request("GET", base + f"/api/state?after={version}", token, base)
            answered["at"] = time.perf_counter()
        waiter = threading.Thread(target=wait)
        waiter.start()
        time.sleep(1)
        started = time.perf_counter()
        target = "morning" if len(samples) < 3 else "manifesto"   # at most five alarms a target
        added = run(data, "alarm", "add", target, "--at", f"05:{len(samples):02d}", "--days", "sat")
        waiter.join()
        if added not in json.dumps(answered["state"]):
            sys.exit("bench_web: the waiting tab's answer lacks the alarm added")
        return answered["at"] - started
    try:
        rows = {(count, live): tabs(count, live) for live in (False, True) for count in (1, 10)}
        samples = []
        for _ in range(5):
            samples.append(reach())
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait()
    return rows, statistics.median(samples)


def library(data):
    clip = run(data, "clip", "import", os.path.join(os.path.dirname(__file__), "..", "SampleAudio", "kind.ogg"))
    run(data, "playlist", "create", "morning", clip)
    run(data, "alarm", "add", "morning", "--at", "06:45", "--days", "mon-fri")
    run(data, "manifesto", "set", clip)
    run(data, "alarm", "add", "manifesto", "--at", "07:00", "--days", "mon-fri")


def upload_rows():
    recording = os.path.join(work, "take.webm")
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "sine=f=220:d=30", "-af", "volume=0.3", "-c:a", "libopus", "-b:a", "64k", recording], check=True)
    body = open(recording, "rb").read()
    template = os.path.join(work, "web-template")
    library(template)
    web_times, cli_times = [], []
    for round_ in range(3):
        data = os.path.join(work, f"web-{round_}")
        shutil.copytree(template, data)
        server, document = serve(data)
        token = run(data, "token", "create", "bench")
        base = document["url"]
        started = time.perf_counter()
        clip = request("POST", base + "/api/clips?title=Take", token, base, body, "audio/webm")
        changed = request("PUT", base + "/api/manifesto", token, base, json.dumps({"clip": clip["id"]}).encode())
        web_times.append(time.perf_counter() - started)
        server.send_signal(signal.SIGTERM)
        server.wait()
        if len(changed["rebuilds"]["rebuilt"]) != 1:
            sys.exit(f"bench_web: the upload did not rebuild the alarm: {changed['rebuilds']}")
        data = os.path.join(work, f"cli-{round_}")
        shutil.copytree(template, data)
        started = time.perf_counter()
        clip = run(data, "clip", "import", recording, "--title", "Take")
        run(data, "manifesto", "set", clip)
        cli_times.append(time.perf_counter() - started)
    return statistics.median(web_times), statistics.median(cli_times)


# An alarm drawn in the list: the page's time element (this page's, or the one before it).
DRAWN = "#alarms li .alarm-time, #alarms li .time"


def cpu_seconds(pid):
    """The process's CPU time so far, its waited-for children's included (/proc/PID/stat)."""
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return sum(int(value) for value in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def poll_rows():
    """The status poll as the page makes it: each answer's wall and server CPU time, for a poll that
    examines the machine (the first after a change, which forgets the kept examination) and for
    one answered from the 15 s the examination is kept. A server that keeps nothing examines on
    every poll."""
    data = os.path.join(work, "poll")
    library(data)
    server, document = serve(data)
    token = run(data, "token", "create", "bench")
    base = document["url"]

    def timed():
        cpu, started = cpu_seconds(server.pid), time.perf_counter()
        request("GET", base + "/api/status", token, base)
        return time.perf_counter() - started, cpu_seconds(server.pid) - cpu
    try:
        request("GET", base + "/api/status", token, base)
        kept = [timed() for _ in range(60)]
        examining = []
        for _ in range(15):
            request("POST", base + "/api/stop", token, base)   # a change: the next poll examines
            examining.append(timed())
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait()
    cli = []
    for _ in range(10):
        started = time.perf_counter()
        subprocess.run([binary, "--data-dir", data, "--json", "alarm", "list"], check=True, capture_output=True)
        cli.append(time.perf_counter() - started)
    wall = lambda rows: statistics.median(row[0] for row in rows)
    cpu = lambda rows: statistics.mean(row[1] for row in rows)
    return wall(examining), cpu(examining), wall(kept), cpu(kept), statistics.median(cli)


def page_rows():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    data = os.path.join(work, "page")
    library(data)
    server, document = serve(data)
    static = os.path.join(work, "static")
    os.makedirs(static)
    token = run(data, "token", "create", "bench")
    def fetch(path):
        with urllib.request.urlopen(urllib.request.Request(document["url"] + path, headers={"Authorization": "Bearer " + token})) as r:
            return r.read()
    page = fetch("/")
    open(os.path.join(static, "index.html"), "wb").write(page)
    # Every script and style the page names, whatever its version names them.
    for name in re.findall(rb'(?:src|href)="/([a-z-]+\.(?:js|css))"', page):
        open(os.path.join(static, name.decode()), "wb").write(fetch("/" + name.decode()))
    peer = subprocess.Popen([sys.executable, "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", static],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    port = peer.stdout.readline().split("port ")[1].split(" ")[0]
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ["--headless=new", "--no-sandbox", "--disable-gpu"]:
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    try:
        driver.get(document["pairing"]["link"])
        driver.find_element(By.CSS_SELECTOR, "#pair button").click()
        WebDriverWait(driver, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, DRAWN))

        def load(url, drawn):
            started = time.perf_counter()
            driver.get(url)
            WebDriverWait(driver, 30, poll_frequency=0.005).until(drawn)
            return time.perf_counter() - started

        ours = statistics.median(load(document["url"] + "/", lambda d: d.find_elements(By.CSS_SELECTOR, DRAWN)) for _ in range(5))
        # The static copy's API requests fail at once (no library behind it), as a network error:
        # the page stays, where a 404 would send it to pairing.
        driver.execute_cdp_cmd("Network.enable", {})
        driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": [f"http://127.0.0.1:{port}/api/*"]})
        theirs = statistics.median(load(f"http://127.0.0.1:{port}/index.html", lambda d: d.execute_script("return document.readyState === 'complete' && location.pathname === '/index.html' && document.getElementById('alarms') !== null")) for _ in range(5))
    finally:
        driver.quit()
        peer.terminate()
        server.send_signal(signal.SIGTERM)
        server.wait()
    return ours, theirs


if __name__ == "__main__":
    page, static = page_rows()
    fresh, fresh_cpu, kept, kept_cpu, alarm_list = poll_rows()
    web, cli = upload_rows()
    live, reached = live_rows()
    print(f"(w) the page on loopback in Chromium, alarms drawn: {page * 1000:.0f} ms, {page / static:.2f} x the same files served static ({static * 1000:.0f} ms)")
    # The page polls every 3 s while in front: within the 15 s an examination is kept, one poll in five examines.
    hourly = (fresh_cpu + 4 * kept_cpu) / 5 * 1200
    print(f"(w) the page's status poll: {fresh * 1000:.1f} ms median examining the machine ({fresh_cpu * 1000:.1f} ms of server CPU), "
          f"{kept * 1000:.1f} ms from the kept examination ({kept_cpu * 1000:.1f} ms of CPU); {hourly:.1f} s of server CPU an hour "
          f"for a page in front (a poll every 3 s); 'alarm list --json' takes {alarm_list * 1000:.0f} ms")
    print(f"(w) a 30 s recording (WebM/Opus) uploaded to its rebuilt ringtone: {web:.2f} s, {web / cli:.2f} x the same through the command line ({cli:.2f} s)")
    print(f"(w) live updates, server CPU an hour with the page open and nothing changing: 1 tab {live[(1, True)]:.1f} s, 10 tabs {live[(10, True)]:.1f} s "
          f"(the long poll); against the status poll every 3 s it replaced: 1 tab {live[(1, False)]:.1f} s, 10 tabs {live[(10, False)]:.1f} s "
          f"({live[(10, False)] / max(live[(10, True)], 0.001):.1f} x the long poll's cost with 10 tabs); a change at the terminal reaches a waiting tab in {reached * 1000:.0f} ms (median of 5)")
