#!/usr/bin/env python3
"""make bench's rows on the difficult recordings (scripts/difficult_corpus.py: DC offset, tone,
music and noise beds, hot, near-silent, hum, peaky; 60 ringtones), in one run on this machine:

  speed    voicealarm batch, cold, m4a: default processing against like-for-like (--gap 0
           --no-trim-silence --no-normalize), medians of RUNS alternating runs; caf like-for-like
           against the ffmpeg CLI doing the same plain job (resample, concat, cut, one process per
           playlist, JOBS at once)
  quality  each ringtone rendered (render --json, default settings, m4a): the share within
           +-0.5 LU of -16 LUFS and the worst offset (pyloudnorm), the true-peak maximum (ffmpeg's
           ebur128 filter, peak=true, on the decoded file), the largest click score at any clip
           join or the loop seam (Tests/Support/joins.py, -60 dBFS floor for AAC), the shortfalls
           the renders reported, by reason, and the encodings they took

Usage: bench_corpus.py BIN WORK PYTHON RESULTS [JOBS] [RUNS]   (appends rows to RESULTS)
"""
import concurrent.futures, json, os, re, shutil, statistics, subprocess, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    binary, work, python, results = sys.argv[1:5]
    jobs = int(sys.argv[5]) if len(sys.argv) > 5 else os.cpu_count()
    runs = int(sys.argv[6]) if len(sys.argv) > 6 else 3
    corpus = os.path.join(work, "difficult")
    subprocess.run([sys.executable, os.path.join(ROOT, "scripts/difficult_corpus.py"), corpus, "60"], check=True)
    ringtones = json.load(open(os.path.join(corpus, "corpus.json")))["ringtones"]
    manifests = {}
    for fmt in ["m4a", "caf"]:
        manifests[fmt] = os.path.join(work, f"difficult-{fmt}.json")
        with open(manifests[fmt], "w") as f:
            json.dump({"format": fmt, "ringtones": [{"id": r["id"], "clips": r["clips"]} for r in ringtones]}, f)

    def batch(fmt, extra):
        out = os.path.join(work, "difficult-out")
        shutil.rmtree(out, ignore_errors=True)
        start = time.perf_counter()
        done = subprocess.run([binary, "batch", manifests[fmt], "--out", out, "--jobs", str(jobs), "-q"] + extra,
                              capture_output=True, text=True)
        seconds = time.perf_counter() - start
        if done.returncode != 0:
            sys.exit(f"bench: batch failed: {done.stderr.strip()}")
        return seconds

    like = ["--gap", "0", "--no-trim-silence", "--no-normalize"]
    print("Measuring the difficult corpus: m4a default against like-for-like…", file=sys.stderr)
    defaults, likes = [], []
    for _ in range(runs):
        likes.append(batch("m4a", like))
        defaults.append(batch("m4a", []))
    row(results, "difficult", "m4a", [statistics.median(defaults), statistics.median(likes), min(defaults) / max(likes), max(defaults) / min(likes)])

    print("Measuring the difficult corpus: caf like-for-like against the ffmpeg CLI…", file=sys.stderr)
    cli_dir = os.path.join(work, "difficult-cli")
    commands = []
    for r in ringtones:
        inputs = " ".join(f"-i '{c}'" for c in r["clips"])
        chains = ";".join(f"[{k}:a]aresample=44100,aformat=sample_fmts=fltp:channel_layouts=mono[a{k}]" for k in range(len(r["clips"])))
        labels = "".join(f"[a{k}]" for k in range(len(r["clips"])))
        commands.append(f"ffmpeg -v error -y {inputs} -filter_complex \"{chains};{labels}concat=n={len(r['clips'])}:v=0:a=1,atrim=end=29[out]\" "
                        f"-map \"[out]\" -ac 1 -ar 44100 -c:a pcm_s16le '{cli_dir}/{r['id']}.caf'")
    cafs, clis = [], []
    for _ in range(runs):
        cafs.append(batch("caf", like))
        shutil.rmtree(cli_dir, ignore_errors=True)
        os.makedirs(cli_dir)
        start = time.perf_counter()
        with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
            failed = [c for c, rc in zip(commands, pool.map(lambda c: subprocess.run(c, shell=True).returncode, commands)) if rc]
        clis.append(time.perf_counter() - start)
        if failed:
            sys.exit(f"bench: the ffmpeg CLI failed: {failed[0]}")
    row(results, "difficult", "caf", [statistics.median(cafs), statistics.median(clis)])

    print("Measuring the difficult corpus: loudness, true peak and joins of each ringtone…", file=sys.stderr)
    rendered = os.path.join(work, "difficult-rendered")
    os.makedirs(rendered, exist_ok=True)
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        measured = list(pool.map(lambda r: quality(binary, python, r, rendered), ringtones))
    offsets = [m["offset"] for m in measured]
    within = sum(abs(o) <= 0.5 for o in offsets)
    reasons = {}
    for m in measured:
        if m["reason"]:
            reasons[m["reason"]] = reasons.get(m["reason"], 0) + 1
    unexplained = sum(1 for m in measured if abs(m["offset"]) > 0.5 and not m["reason"])
    again = sum(1 for m in measured if m["encodings"] > 1)
    row(results, "difficult", "quality", [within, len(measured), min(offsets, key=lambda o: -abs(o)), max(m["truePeak"] for m in measured),
                                          max(m["click"] for m in measured), unexplained, again,
                                          reasons.get("gainCap", 0), reasons.get("limiter", 0), reasons.get("truePeak", 0)])


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
    return {"offset": loud["integrated"] + 16, "truePeak": float(peaks[-1]) if peaks else 0.0, "click": joins["max"],
            "reason": shortfall["reason"] if shortfall else None, "encodings": report["passes"]["encode"]}


def row(results, group, kind, values):
    with open(results, "a") as f:
        f.write(f"{group}|{kind}|{' '.join(f'{v:.4f}' for v in values)}\n")
    print(f"   {group} {kind}: {values}", file=sys.stderr)


if __name__ == "__main__":
    main()
