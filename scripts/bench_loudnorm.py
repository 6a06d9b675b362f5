#!/usr/bin/env python3
"""The peer a user would pick for normalised ringtones: ffmpeg's loudnorm in two passes, one
ffmpeg pair per playlist (measure with print_format=json, then apply with the measured values and
linear=true), on the closest chain to VoiceAlarm's processing (resample each input, trim silence,
0.3 s gaps, concat, cut at 29 s), encoded as VoiceAlarm encodes (AAC 96 kbit/s, 44.1 kHz mono,
faststart). JOBS playlists at once. Prints the seconds the whole manifest took.

Usage: bench_loudnorm.py MANIFEST OUT JOBS
"""
import concurrent.futures, json, os, subprocess, sys, time

TRIM = "silenceremove=start_periods=1:start_threshold=-50dB,areverse,silenceremove=start_periods=1:start_threshold=-50dB,areverse"


def graph(clips, loudnorm, trim=True):
    chains = ";".join(f"[{k}:a]aresample=44100,aformat=sample_fmts=fltp:channel_layouts=mono,{TRIM + ',' if trim else ''}apad=pad_dur=0.3[a{k}]"
                      for k in range(len(clips)))
    labels = "".join(f"[a{k}]" for k in range(len(clips)))
    return f"{chains};{labels}concat=n={len(clips)}:v=0:a=1,atrim=end=29,{loudnorm}[out]"


def pair(ringtone, out, trim=True):
    inputs = [a for c in ringtone["clips"] for a in ("-i", c)]
    first = subprocess.run(["ffmpeg", "-hide_banner", "-nostats", "-y"] + inputs + ["-filter_complex",
                           graph(ringtone["clips"], "loudnorm=I=-16:TP=-1:print_format=json", trim), "-map", "[out]", "-f", "null", "-"],
                           capture_output=True, text=True)
    if first.returncode != 0:
        # The silence trim left nothing (a near-silent take, all under its threshold): a user would
        # drop the trim for that playlist, and so does the peer.
        return pair(ringtone, out, trim=False) if trim else f"pass 1 of {ringtone['id']}: {first.stderr.strip()[-200:]}"
    text = first.stderr
    m = json.loads(text[text.rindex("{"):text.rindex("}") + 1])
    if all(v not in m[k] for k in ["input_i", "input_tp", "target_offset"] for v in ["inf", "nan"]):
        second = (f"loudnorm=I=-16:TP=-1:measured_I={m['input_i']}:measured_TP={m['input_tp']}:measured_LRA={m['input_lra']}"
                  f":measured_thresh={m['input_thresh']}:offset={m['target_offset']}:linear=true,aresample=44100")
    else:
        # Nothing measurable left (a near-silent take the silence trim removed whole): loudnorm as it is.
        second = "loudnorm=I=-16:TP=-1,aresample=44100"
    done = subprocess.run(["ffmpeg", "-v", "error", "-y"] + inputs + ["-filter_complex", graph(ringtone["clips"], second, trim),
                          "-map", "[out]", "-ac", "1", "-ar", "44100", "-c:a", "aac", "-b:a", "96k", "-movflags", "+faststart",
                          os.path.join(out, ringtone["id"] + ".m4a")], capture_output=True, text=True)
    return None if done.returncode == 0 else f"pass 2 of {ringtone['id']}: {done.stderr.strip()[-200:]}"


def main():
    manifest, out, jobs = sys.argv[1], sys.argv[2], int(sys.argv[3])
    ringtones = json.load(open(manifest))["ringtones"]
    os.makedirs(out, exist_ok=True)
    start = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        failed = [f for f in pool.map(lambda r: pair(r, out), ringtones) if f]
    seconds = time.perf_counter() - start
    if failed:
        sys.exit(f"bench: loudnorm failed: {failed[0]}")
    print(f"{seconds:.3f}")


if __name__ == "__main__":
    main()
