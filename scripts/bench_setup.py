#!/usr/bin/env python3
"""Makes the benchmark's inputs: 40 spoken clips in mixed formats and rates (espeak-ng + ffmpeg),
the same 40 over beds that run edge to edge (a held tone, a chord bed, room noise: the dense
material people record over music), manifests of N and BIG playlists of 3-8 clips drawn from
them (fixed seed; the dense corpus `dense-*` has N), and the ffmpeg CLI commands that build the
same playlists. Usage: bench_setup.py WORK N BIG"""
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
dense_clips = []
for i in range(40):
    text = f"I am {words[i % 10]}. Today I choose to be {words[(i * 3 + 1) % 10]} and {words[(i * 7 + 2) % 10]}, one step at a time."
    raw = os.path.join(work, f"raw{i}.wav")
    subprocess.run(["espeak-ng", "-s", str(130 + i % 5 * 10), "-w", raw, text], check=True)
    ext, codec = formats[i % len(formats)]
    out = os.path.join(clips_dir, f"clip{i:02d}.{ext}")
    rate = min(rates[i % len(rates)], 48000) if ext == "mp3" else rates[i % len(rates)]
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-i", raw, "-ar", str(rate), "-ac", str(1 + i % 2)] + codec + [out], check=True)
    # The same words over a bed from the first sample to the last, started mid-waveform.
    dense = os.path.join(clips_dir, f"dense{i:02d}.{ext}")
    if i % 3 == 0:
        bed = f"aevalsrc='{[0.05, 0.1, 0.2][(i // 3) % 3]}*sin(2*PI*{[110, 196, 261.63, 440][(i // 3) % 4]}*t+1.1)':s=48000:d=20"
    elif i % 3 == 1:
        chord = [(261.63, 329.63, 392.0), (220.0, 261.63, 329.63), (174.61, 220.0, 261.63), (196.0, 246.94, 293.66)]
        terms = "+".join(f"between(mod(t,2),{k * 0.5},{k * 0.5 + 0.5})*(sin(2*PI*{a}*t)+sin(2*PI*{b}*t)+0.7*sin(2*PI*{c}*t))"
                         for k, (a, b, c) in enumerate(chord))
        bed = f"aevalsrc='0.04*({terms})':s=44100:d=20"
    else:
        bed = f"anoisesrc=c={['pink', 'brown'][i % 2]}:a={[0.02, 0.03][i % 2]}:r=44100:d=20:s={i + 1}"
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-i", raw, "-filter_complex",
                    f"{bed}[bed];[0:a]aresample=48000,aformat=sample_fmts=fltp:channel_layouts=mono[v];"
                    "[v][bed]amix=inputs=2:duration=first:normalize=0[o]",
                    "-map", "[o]", "-ar", str(rate), "-ac", str(1 + i % 2)] + codec + [dense], check=True)
    os.remove(raw)
    clips.append(out)
    dense_clips.append(dense)

def playlists(count, seed, pool):
    r = random.Random(seed)
    return [r.sample(pool, r.randint(3, 8)) for _ in range(count)]

for count, name, pool in [(n, "small", clips), (big, "big", clips), (n, "dense", dense_clips)]:
    lists = playlists(count, count, pool)
    for fmt in ["m4a", "caf"]:
        with open(os.path.join(work, f"{name}-{fmt}.json"), "w") as f:
            json.dump({"format": fmt, "ringtones": [{"id": f"p{i:04d}", "clips": p} for i, p in enumerate(lists)]}, f)
    if name == "big":
        continue
    prefix = "" if name == "small" else "dense-"
    for fmt, codec in [("m4a", "-c:a aac -b:a 96k -movflags +faststart"), ("caf", "-c:a pcm_s16le")]:
        for variant in ["plain", "processed"]:
            out_dir = os.path.join(work, f"{prefix}cli-{variant}-{fmt}")
            os.makedirs(out_dir, exist_ok=True)
            with open(os.path.join(work, f"{prefix}cli-{variant}-{fmt}.txt"), "w") as f:
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
