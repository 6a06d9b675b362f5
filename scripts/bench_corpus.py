#!/usr/bin/env python3
"""make bench's rows for one corpus of playlists, in one run on this machine. Every speed is each
side's minimum of ROUNDS interleaved rounds (default 2), so the ratios are taken within one run:

  speed    (wall clock, and the CPU time of the processes: on a machine shared with other work the
           CPU ratios are the steadier ones)
           voicealarm batch, cold, m4a: default processing, like-for-like (--gap 0
           --no-trim-silence --no-normalize), and the peer a user would pick, ffmpeg's loudnorm in
           two passes (scripts/bench_loudnorm.py); caf like-for-like against the ffmpeg CLI doing
           the same plain job (resample, concat, cut, one process per playlist, JOBS at once)
  bound    the loaded-machine encoder bound: one voicealarm-bench process per core at once, on the
           like-for-like caf outputs' own samples (the m4a encoder, nothing else)
  quality  the first 60 ringtones rendered one by one (render --json, default settings, m4a): the
           share within +-0.5 LU of -16 LUFS and the worst offset (pyloudnorm), the true-peak maximum
           (ffmpeg's ebur128 filter, peak=true, on the decoded file), the largest click score at any
           clip join or the loop seam (Tests/Support/joins.py, -60 dBFS floor for AAC), the
           shortfalls the renders reported, by reason, and the passes they made (measure, encode)

Corpora: `difficult` and `beds` are made here by scripts/difficult_corpus.py (60 playlists of
DC offset, tone, music and noise beds, hot, near-silent, hum, peaky takes; and 60 of 3-8 clips
that all carry beds edge to edge); any other name is a manifest pair made by scripts/bench_setup.py
(`--manifest WORK/NAME` for WORK/NAME-m4a.json and WORK/NAME-caf.json).

Usage: bench_corpus.py BIN WORK PYTHON RESULTS JOBS NAME [--manifest PREFIX] [--bound BIN] [--rounds N]
(appends rows to RESULTS)
"""
import concurrent.futures, json, os, re, resource, shutil, subprocess, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
QUALITY_RINGTONES = 60


def main():
    binary, work, python, results, jobs, name = sys.argv[1:7]
    jobs = int(jobs)
    options = dict(zip(sys.argv[7::2], sys.argv[8::2]))
    rounds = int(options.get("--rounds", "2"))
    manifests = corpus_manifests(work, name, options.get("--manifest"))
    ringtones = json.load(open(manifests["m4a"]))["ringtones"]

    def batch(fmt, extra, out):
        shutil.rmtree(out, ignore_errors=True)
        start = time.perf_counter()
        done = subprocess.run([binary, "batch", manifests[fmt], "--out", out, "--jobs", str(jobs), "-q"] + extra,
                              capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit(f"bench: batch failed: {done.stderr.strip()}")
        return time.perf_counter() - start

    def timed(kind, measure):
        """Runs `measure` (which returns wall seconds), keeping its wall time and its children's CPU time."""
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        wall = measure()
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        speeds[kind].append(wall)
        cpu[kind].append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)

    like = ["--gap", "0", "--no-trim-silence", "--no-normalize"]
    cli_dir = os.path.join(work, f"{name}-cli")
    commands = cli_commands(ringtones, cli_dir)
    def loudnorm():
        done = subprocess.run([sys.executable, os.path.join(ROOT, "scripts/bench_loudnorm.py"), manifests["m4a"],
                               os.path.join(work, f"{name}-loudnorm"), str(jobs)], capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit(done.stderr.strip())
        return float(done.stdout)

    speeds = {"default": [], "like": [], "loudnorm": [], "caf": [], "cli": []}
    cpu = {kind: [] for kind in speeds}
    for round in range(rounds):
        print(f"Measuring the {name} corpus, round {round + 1} of {rounds}…", file=sys.stderr)
        timed("like", lambda: batch("m4a", like, os.path.join(work, f"{name}-like")))
        timed("default", lambda: batch("m4a", [], os.path.join(work, f"{name}-default")))
        timed("loudnorm", loudnorm)
        timed("caf", lambda: batch("caf", like, os.path.join(work, f"{name}-like-caf")))
        timed("cli", lambda: cli(commands, cli_dir, jobs))
    order = ["default", "like", "loudnorm", "caf", "cli"]
    row(results, name, "speed", [min(speeds[k]) for k in order] + [len(ringtones)])
    row(results, name, "cpu", [min(cpu[k]) for k in order])

    bound = options.get("--bound")
    if bound:
        listing = os.path.join(work, f"{name}-bound-list.txt")
        with open(listing, "w") as f:
            f.write("\n".join(os.path.join(work, f"{name}-like-caf", r["id"] + ".caf") for r in ringtones) + "\n")
        row(results, name, "bound", [min(loaded_bound(bound, listing, os.path.join(work, f"{name}-bound"), jobs) for _ in range(rounds))])

    print(f"Measuring the {name} corpus: loudness, true peak, joins and passes of each ringtone…", file=sys.stderr)
    rendered = os.path.join(work, f"{name}-rendered")
    os.makedirs(rendered, exist_ok=True)
    sample = ringtones[:QUALITY_RINGTONES]
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        measured = list(pool.map(lambda r: quality(binary, python, r, rendered), sample))
    offsets = [m["offset"] for m in measured]
    within = sum(abs(o) <= 0.5 for o in offsets)
    reasons = {}
    for m in measured:
        if m["reason"]:
            reasons[m["reason"]] = reasons.get(m["reason"], 0) + 1
    unexplained = sum(1 for m in measured if abs(m["offset"]) > 0.5 and not m["reason"])
    again = sum(1 for m in measured if m["encodings"] > 1)
    one_pass = sum(1 for m in measured if m["measures"] <= 1 and m["encodings"] == 1)
    count = len(measured)
    row(results, name, "quality", [within, count, min(offsets, key=lambda o: -abs(o)), max(m["truePeak"] for m in measured),
                                   max(m["click"] for m in measured), unexplained, again,
                                   reasons.get("gainCap", 0), reasons.get("limiter", 0), reasons.get("truePeak", 0),
                                   sum(m["measures"] for m in measured) / count, sum(m["encodings"] for m in measured) / count, one_pass])
    for m in measured:
        if abs(m["offset"]) > 0.5:
            print(f"   {name} miss: {m['id']} {m['offset']:+.2f} LU ({m['reason'] or 'no reason'})", file=sys.stderr)


def corpus_manifests(work, name, prefix):
    """The m4a and caf manifests of the corpus NAME (made here for `difficult` and `beds`)."""
    if prefix:
        return {fmt: f"{prefix}-{fmt}.json" for fmt in ["m4a", "caf"]}
    folder = os.path.join(work, "difficult")
    if not os.path.exists(os.path.join(folder, "corpus-beds.json")):
        subprocess.run([sys.executable, os.path.join(ROOT, "scripts/difficult_corpus.py"), folder, "60"], check=True)
    source = os.path.join(folder, "corpus.json" if name == "difficult" else "corpus-beds.json")
    ringtones = json.load(open(source))["ringtones"]
    manifests = {}
    for fmt in ["m4a", "caf"]:
        manifests[fmt] = os.path.join(work, f"{name}-{fmt}.json")
        with open(manifests[fmt], "w") as f:
            json.dump({"format": fmt, "ringtones": [{"id": r["id"], "clips": r["clips"]} for r in ringtones]}, f)
    return manifests


def cli_commands(ringtones, folder):
    """The ffmpeg CLI doing the plain job (resample, concat, cut at 29 s) to 16-bit caf, one command per playlist."""
    commands = []
    for r in ringtones:
        inputs = " ".join(f"-i '{c}'" for c in r["clips"])
        chains = ";".join(f"[{k}:a]aresample=44100,aformat=sample_fmts=fltp:channel_layouts=mono[a{k}]" for k in range(len(r["clips"])))
        labels = "".join(f"[a{k}]" for k in range(len(r["clips"])))
        commands.append(f"ffmpeg -v error -y {inputs} -filter_complex \"{chains};{labels}concat=n={len(r['clips'])}:v=0:a=1,atrim=end=29[out]\" "
                        f"-map \"[out]\" -ac 1 -ar 44100 -c:a pcm_s16le '{folder}/{r['id']}.caf'")
    return commands


def cli(commands, folder, jobs):
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    start = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        failed = [c for c, rc in zip(commands, pool.map(lambda c: subprocess.run(c, shell=True).returncode, commands)) if rc]
    if failed:
        sys.exit(f"bench: the ffmpeg CLI failed: {failed[0]}")
    return time.perf_counter() - start


def loaded_bound(bound, listing, out, jobs):
    """One encoder process per core, started together, a share of the list each: the slowest one's seconds."""
    os.makedirs(out, exist_ok=True)
    at = time.time() + 3
    env = dict(os.environ, BENCH_START_AT=str(at))
    processes = [subprocess.Popen([bound, "m4a", listing, out, "1", f"{k}/{jobs}"], stdout=subprocess.PIPE, text=True, env=env)
                 for k in range(1, jobs + 1)]
    times = []
    for p in processes:
        text, _ = p.communicate()
        if p.returncode != 0:
            sys.exit("bench: an encoder process of the loaded bound failed")
        times.append(float(text.strip()))
    return max(times)


def quality(binary, python, ringtone, folder):
    out = os.path.join(folder, ringtone["id"] + ".m4a")
    done = subprocess.run([binary, "render", "--json", "-q", "-o", out] + ringtone["clips"], capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"bench: render {ringtone['id']} failed: {done.stderr.strip()}")
    report = json.loads(done.stdout)
    edges = [str(v) for c in report["clips"] if c["used"] for v in (c["start"], c["start"] + c["duration"])]
    loud = json.loads(subprocess.run([python, os.path.join(ROOT, "Tests/Support/measure.py"), out], capture_output=True, text=True, check=True).stdout)
    joins = json.loads(subprocess.run([python, os.path.join(ROOT, "Tests/Support/joins.py"), "--floor", "-60", out] + edges,
                                      capture_output=True, text=True, check=True).stdout)
    summary = subprocess.run(["ffmpeg", "-hide_banner", "-nostats", "-i", out, "-af", "ebur128=peak=true", "-f", "null", "-"],
                             capture_output=True, text=True).stderr
    peaks = re.findall(r"Peak:\s+(-?[\d.]+|-inf) dBFS", summary)
    shortfall = report["loudness"].get("shortfall")
    return {"id": ringtone["id"], "offset": loud["integrated"] + 16, "truePeak": float(peaks[-1]) if peaks else 0.0, "click": joins["max"],
            "reason": shortfall["reason"] if shortfall else None, "encodings": report["passes"]["encode"],
            "measures": report["passes"]["measure"]}


def row(results, group, kind, values):
    with open(results, "a") as f:
        f.write(f"{group}|{kind}|{' '.join(f'{v:.4f}' for v in values)}\n")
    print(f"   {group} {kind}: {values}", file=sys.stderr)


if __name__ == "__main__":
    main()
