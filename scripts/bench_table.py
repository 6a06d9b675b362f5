#!/usr/bin/env python3
"""Prints make bench's table from the rows scripts/bench.sh collected.
Usage: bench_table.py RESULTS N BIG JOBS"""
import sys

rows = {}
for line in open(sys.argv[1]):
    fmt, kind, values = line.strip().split("|")
    rows[(fmt, kind)] = [float(v) for v in values.split()]
n, big, jobs = sys.argv[2], sys.argv[3], sys.argv[4]
if ("m4a", "like") in rows:   # absent when only the difficult-recordings rows ran (make bench-corpus)
    print(f"VoiceAlarm benchmark: {n} playlists of 3-8 clips from 40 clips in mixed formats and rates, {jobs} jobs.\n")
    print(f"{'format':7} {'measure':84} {'seconds':>9} {'ratio':>30}")
    for fmt in ["m4a", "caf"]:
        a, b, c, c2 = rows[(fmt, "like")]
        a2, b2 = rows[(fmt, "default")]
        d, e, built, users = rows[(fmt, "rerun")]
        small, bigger, default, idle, one_job = rows[(fmt, "rss")]
        one, sharded, shards = rows[(fmt, "shards")]
        lines = [
            ("(a) voicealarm batch, cold, like-for-like (--gap 0 --no-trim-silence --no-normalize)", a,
             f"{a / b:.2f} x CLI, {a / c2:.2f} x loaded bound"),
            ("(b) ffmpeg CLI, one process per playlist: resample + concat + cut, xargs -P", b, ""),
            ("(c) encoder-only bound, in-process: the ringtones' own samples, one thread per core", c, f"{a / c:.2f} x (a)/(c)"),
            ("(c') encoder-only bound, loaded machine: one encoder process per core at once", c2, f"{c / c2:.2f} x (c)/(c')"),
            ("(a') voicealarm batch, cold, default processing (trim, gaps, loudness, check)", a2, f"{a2 / a:.2f} x like-for-like, {a2 / b2:.2f} x CLI"),
            ("(b') ffmpeg CLI, closest chain: silenceremove, gaps, loudnorm", b2, ""),
            ("(d) no-change re-run", d, f"{d / a2:.3f} x cold"),
            (f"(e) re-run after one clip changed ({int(built)} rebuilt; {int(users)} use it)", e, f"{e / a2:.3f} x cold"),
            (f"(g) one process, --jobs {int(shards)}, cold, default processing", one, ""),
            (f"(h) {int(shards)} shard processes at once into one --out, --jobs 1 each (same total jobs)", sharded, f"{sharded / one:.2f} x one process"),
        ]
        for name, value, ratio in lines:
            print(f"{fmt:7} {name:84} {value:9.3f} {ratio:>30}")
        per_job = lambda peak: (peak - idle) / 1024 / int(jobs)
        print(f"{fmt:7} {'(f) peak RSS, like-for-like, at ' + n + ' / ' + big + ' ringtones':84} {small / 1024:6.1f} MB / {bigger / 1024:.1f} MB")
        print(f"{fmt:7} {'(f) peak RSS, default processing, ' + n + ' ringtones, ' + jobs + ' jobs / 1 job; idle process (empty batch)':84} {default / 1024:6.1f} MB / {one_job / 1024:.1f} MB / {idle / 1024:.1f} MB")
        print(f"{fmt:7} {'(f) per job above the idle process: like-for-like ' + n + ' / ' + big + ', default ' + n:84} "
              f"{per_job(small):6.1f} MB / {per_job(bigger):.1f} MB / {per_job(default):.1f} MB")
        print(f"{fmt:7} {'(f) the second job alone: default processing, ' + jobs + ' jobs minus 1 job, per extra job':84} "
              f"{(default - one_job) / 1024 / max(1, int(jobs) - 1):6.1f} MB")
        print()
    render, encode, seconds = rows[("single", "m4a")]
    print(f"{'m4a':7} {f'(i) one render of a {seconds:.1f}-s ringtone, default processing (median of 5)':84} {render:9.3f} {render / encode:25.2f} x (j)")
    print(f"{'m4a':7} {'(j) the encoder alone on that ringtone`s own samples, in-process (median of 5)':84} {encode:9.3f}")
    settings, build_all, single, voice = rows[("library", "settings")]
    print(f"{'library':7} {f'(k) settings target-lufs: rebuilds {int(voice)} voice alarms':84} {settings:9.3f} {settings / single:22.2f} x (m), {settings / build_all:.2f} x (l)")
    print(f"{'library':7} {'(l) build --all, the same 20 rebuilt (their files removed)':84} {build_all:9.3f}")
    print(f"{'library':7} {'(m) one render of one of those playlists (median of 3)':84} {single:9.3f}")
if ("walk", "walk") in rows:
    build, reconcile, settings, listing, alarms = rows[("walk", "walk")]
    for label, value in [("(n) build --all", build), ("(o) reconcile", reconcile), ("(p) settings gap 0.3 (rebuilds nothing)", settings)]:
        print(f"{'walk':7} {f'{label}, {int(alarms)} voice alarms, nothing to build (median of 3)':84} {value:9.3f} {value / listing:22.2f} x (q)")
    print(f"{'walk':7} {f'(q) alarm list of the same {int(alarms)} alarms (median of 3)':84} {listing:9.3f}")
corpora = [c for c in ["speech", "dense", "difficult", "beds"] if (c, "speed") in rows]
titles = {
    "speech": "speech: the playlists above (espeak-ng clips in mixed formats and rates)",
    "dense": "dense: the same playlists, every clip over a tone, chord or noise bed edge to edge",
    "difficult": "difficult: scripts/difficult_corpus.py, DC offset, beds, hot, near-silent, hum, peaky takes",
    "beds": "beds: scripts/difficult_corpus.py's bedded clips only (tone, music, noise, hum), 3-8 a playlist",
}
for corpus in corpora:
    default, like, loudnorm, caf, cli, count = rows[(corpus, "speed")]
    cpu = rows.get((corpus, "cpu"))
    (loaded,) = rows.get((corpus, "bound"), [0])
    within, n, worst, peak, click, unexplained, again, gain_cap, limiter, true_peak, measures, encodes, one_pass = rows[(corpus, "quality")]
    print()
    print(f"Corpus {titles[corpus]}: {int(count)} playlists; each side's minimum of two interleaved rounds.")
    lines = [
        ("(r) batch, cold, m4a, default processing", default, f"{default / like:.2f} x (s), {default / loudnorm:.2f} x (t)"),
        ("(s) batch, cold, m4a, like-for-like", like, f"{like / loaded:.2f} x (u)" if loaded else ""),
        ("(t) ffmpeg loudnorm in two passes (measure, then linear=true), one pair per playlist", loudnorm, ""),
        ("(u) encoder-only bound, loaded machine: one encoder process per core at once", loaded, ""),
        ("(v) batch, cold, caf, like-for-like", caf, f"{caf / cli:.2f} x (w)"),
        ("(w) ffmpeg CLI, the same plain job, one process per playlist", cli, ""),
    ]
    for name, value, ratio in lines:
        if value:
            print(f"{corpus:9} {name:84} {value:9.3f} {ratio:>30}")
    if cpu:
        d, l, ln, c, w = cpu
        print(f"{corpus:9} {'(r-w) CPU seconds of the processes: (r) / (s) / (t) / (v) / (w)':84} "
              f"{d:.1f} / {l:.1f} / {ln:.1f} / {c:.1f} / {w:.1f}; (r)/(s) {d / l:.2f}, (r)/(t) {d / ln:.2f}, (v)/(w) {c / w:.2f}")
    print(f"{corpus:9} {f'(x) passes per ringtone, measure / encode (render --json, the first {int(n)})':84} {measures:5.2f} / {encodes:.2f}"
          f"   one measure + one encode: {int(one_pass)} of {int(n)}")
    print(f"{corpus:9} {'(y) within +-0.5 LU of -16 LUFS (pyloudnorm), m4a; worst offset':84} {int(within):>5d} of {int(n)} {100 * within / n:5.1f} %; {worst:+.2f} LU")
    print(f"{corpus:9} {'(y) shortfalls reported: gain cap / limiter / true peak; off by > 0.5 LU without one':84} "
          f"{int(gain_cap):>3d} / {int(limiter)} / {int(true_peak)}; {int(unexplained)}")
    print(f"{corpus:9} {'(z) true peak, the largest (ffmpeg ebur128 peak=true on the decoded file), dBTP':84} {peak:+9.2f}")
    print(f"{corpus:9} {'(z) click score, the largest at any join or loop seam (joins.py; a hard cut scores 10-2000)':84} {click:9.2f}")
    print(f"{corpus:9} {'(z) ringtones encoded more than once':84} {int(again):>5d} of {int(n)}")
