#!/usr/bin/env python3
"""The web rows of make bench (a benchmark, not a test), each against a peer measured in the same run:

1. The page on loopback, in headless Chromium: from navigation until the alarm list is drawn
   (every API call the page makes answered), median of 5 loads; against the same page's HTML,
   script and style served as static files by Python's http.server (the page with no library
   behind it: what the API and the library cost).
2. A 30-second recording (WebM/Opus, what a browser's MediaRecorder makes) from upload to
   rebuilt ringtone: POST /api/clips, then PUT /api/manifesto with it, which rebuilds the
   manifesto alarm's ringtone (cut at the 29 s cap) and re-schedules it; median of 3, against
   the same two steps through the command line (`clip import`, `manifesto set`) on a copy of the
   same library.

Usage: bench_web.py VOICEALARM WORK_DIR VENV_PYTHON"""
import json, os, shutil, signal, statistics, subprocess, sys, threading, time, urllib.request

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
            return process, json.loads(text)
        except json.JSONDecodeError:
            continue


def request(method, url, token, origin, body=None, content_type="application/json"):
    headers = {"Authorization": "Bearer " + token, "Origin": origin}
    if body is not None:
        headers["Content-Type"] = content_type
    with urllib.request.urlopen(urllib.request.Request(url, data=body, method=method, headers=headers), timeout=120) as response:
        return json.loads(response.read() or b"null")


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
    for name in ["app.js", "style.css"]:
        with urllib.request.urlopen(urllib.request.Request(document["url"] + "/" + name, headers={"Authorization": "Bearer " + token})) as r:
            open(os.path.join(static, name), "wb").write(r.read())
    with urllib.request.urlopen(urllib.request.Request(document["url"] + "/", headers={"Authorization": "Bearer " + token})) as r:
        open(os.path.join(static, "index.html"), "wb").write(r.read())
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
        WebDriverWait(driver, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#alarms li .time"))

        def load(url, drawn):
            started = time.perf_counter()
            driver.get(url)
            WebDriverWait(driver, 30, poll_frequency=0.005).until(drawn)
            return time.perf_counter() - started

        ours = statistics.median(load(document["url"] + "/", lambda d: d.find_elements(By.CSS_SELECTOR, "#alarms li .time")) for _ in range(5))
        theirs = statistics.median(load(f"http://127.0.0.1:{port}/index.html", lambda d: d.execute_script("return document.readyState") == "complete"
                                        and d.find_element(By.ID, "alarms") is not None) for _ in range(5))
    finally:
        driver.quit()
        peer.terminate()
        server.send_signal(signal.SIGTERM)
        server.wait()
    return ours, theirs


if __name__ == "__main__":
    page, static = page_rows()
    web, cli = upload_rows()
    print(f"(w) the page on loopback in Chromium, alarms drawn: {page * 1000:.0f} ms, {page / static:.2f} x the same files served static ({static * 1000:.0f} ms)")
    print(f"(w) a 30 s recording (WebM/Opus) uploaded to its rebuilt ringtone: {web:.2f} s, {web / cli:.2f} x the same through the command line ({cli:.2f} s)")
