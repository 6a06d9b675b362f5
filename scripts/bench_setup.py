#!/usr/bin/env python3
"""Makes the benchmark's inputs: 40 spoken clips in mixed formats and rates (espeak-ng + ffmpeg),
manifests of N and BIG playlists of 3-8 clips drawn from them (fixed seed), and the ffmpeg CLI
commands that build the same playlists. Usage: bench_setup.py WORK N BIG"""
import json, os, random, subprocess, sys

work, n, big = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
clips_dir = os.path.join(work, "clips")
os.makedirs(clips_dir, exist_ok=True)
words = ["calm", "ready", "grateful", "strong", "kind", "patient", "brave", "focused", "rested", "curious"]
formats = [("wav", ["-c:a", "pcm_s16le"]), ("mp3", ["-c:a", "libmp3lame", "-b:a", "128k"]), ("m4a", ["-c:a", "aac", "-b:a", "96k"]),
           ("flac", ["-c:a", "flac"]), ("ogg", ["-c:a", "libvorbis", "-q:a", "4"])]
rates = [16000, 22050, 32000, 44100, 48000, 96000]
rng = random.Random(29)
clips = []
for i in range(40):
    text = f"I am {words[i % 10]}. Today I choose to be {words[(i * 3 + 1) % 10]} and {words[(i * 7 + 2) % 10]}, one step at a time."
    raw = os.path.join(work, f"raw{i}.wav")
    subprocess.run(["espeak-ng", "-s", str(130 + i % 5 * 10), "-w", raw, text], check=True)
    ext, codec = formats[i % len(formats)]
    out = os.path.join(clips_dir, f"clip{i:02d}.{ext}")
    rate = min(rates[i % len(rates)], 48000) if ext == "mp3" else rates[i % len(rates)]
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-i", raw, "-ar", str(rate), "-ac", str(1 + i % 2)] + codec + [out], check=True)
    os.remove(raw)
    clips.append(out)

def playlists(count, seed):
    r = random.Random(seed)
    return [r.sample(clips, r.randint(3, 8)) for _ in range(count)]

for count, name in [(n, "small"), (big, "big")]:
    lists = playlists(count, count)
    for fmt in ["m4a", "caf"]:
        with open(os.path.join(work, f"{name}-{fmt}.json"), "w") as f:
            json.dump({"format": fmt, "ringtones": [{"id": f"p{i:04d}", "clips": p} for i, p in enumerate(lists)]}, f)
    if name != "small":
        continue
    for fmt, codec in [("m4a", "-c:a aac -b:a 96k -movflags +faststart"), ("caf", "-c:a pcm_s16le")]:
        for variant in ["plain", "processed"]:
            out_dir = os.path.join(work, f"cli-{variant}-{fmt}")
            os.makedirs(out_dir, exist_ok=True)
            with open(os.path.join(work, f"cli-{variant}-{fmt}.txt"), "w") as f:
                for i, p in enumerate(lists):
                    inputs = " ".join(f"-i '{c}'" for c in p)
                    if variant == "plain":
                        chains = ";".join(f"[{k}:a]aresample=44100,aformat=sample_fmts=fltp:channel_layouts=mono[a{k}]" for k in range(len(p)))
                        tail = f"concat=n={len(p)}:v=0:a=1,atrim=end=29"
                    else:
                        trim = "silenceremove=start_periods=1:start_threshold=-50dB,areverse,silenceremove=start_periods=1:start_threshold=-50dB,areverse"
                        chains = ";".join(f"[{k}:a]aresample=44100,aformat=sample_fmts=fltp:channel_layouts=mono,{trim},apad=pad_dur=0.3[a{k}]" for k in range(len(p)))
                        tail = f"concat=n={len(p)}:v=0:a=1,atrim=end=29,loudnorm=I=-16:TP=-1,aresample=44100,afade=t=in:d=0.01"
                    labels = "".join(f"[a{k}]" for k in range(len(p)))
                    f.write(f"ffmpeg -v error -y {inputs} -filter_complex \"{chains};{labels}{tail}[out]\" -map \"[out]\" -ac 1 -ar 44100 {codec} '{out_dir}/p{i:04d}.{fmt}'\n")
print(clips[0])
