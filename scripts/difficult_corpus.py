#!/usr/bin/env python3
"""Makes the recordings people actually make, from SampleAudio and alsa-utils' spoken channel
names, with the ffmpeg CLI only (fixed seeds: the same files on every run):

  clean     the speech as it is, in several containers
  dc        a cheap USB microphone: a DC offset of 0.04-0.15 under the speech
  tone      speech over a steady tone bed (a held note), edges cut mid-waveform
  music     speech over a chord bed that changes every half second
  noise     speech over room noise (pink or brown), 30-40 dB under it
  hot       a take already limited hot (+14-20 dB into a limiter)
  quiet     a very quiet take (-28 to -36 dB)
  hum       mains hum (50 or 60 Hz and harmonics) under the speech
  peaky     a short, peaky utterance (alsa-utils' "Front Left"), in ogg and webm

and a manifest of playlists that join them, each clip's edges as recorded (nothing faded); and a
second manifest of dense playlists, 3-8 clips that all carry beds edge to edge (tone, music, noise,
hum: the material people record over music), from the same clips.

Usage: difficult_corpus.py OUT [PLAYLISTS]
Writes OUT/clips/*, OUT/corpus.json ({"clips": {name: kind}, "ringtones": [{"id", "clips"}]}),
OUT/corpus-beds.json (the same shape), and prints nothing but errors.
"""
import json, os, random, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SPEECH = [os.path.join(ROOT, "SampleAudio", n) for n in
          ["calm.wav", "ready.mp3", "grateful.m4a", "strong.flac", "kind.ogg"]]
ALSA = "/usr/share/sounds/alsa"
CHANNEL_NAMES = [os.path.join(ALSA, n) for n in ["Front_Left.wav", "Front_Right.wav", "Rear_Center.wav", "Side_Left.wav"]]
CONTAINERS = [("wav", ["-c:a", "pcm_s16le"]), ("flac", ["-c:a", "flac"]), ("ogg", ["-c:a", "libvorbis", "-q:a", "5"]),
              ("m4a", ["-c:a", "aac", "-b:a", "128k"]), ("mp3", ["-c:a", "libmp3lame", "-b:a", "160k"])]


def ffmpeg(args):
    subprocess.run(["ffmpeg", "-v", "error", "-y"] + args, check=True)


def make(out, kind, index, rng):
    """One clip of `kind` made from a speech recording; returns its path."""
    speech = SPEECH[index % len(SPEECH)]
    ext, codec = CONTAINERS[index % len(CONTAINERS)]
    rate = [44100, 48000, 32000, 22050][index % 4]
    path = os.path.join(out, f"{kind}{index:02d}.{ext}")
    seed = rng.randrange(1, 1 << 30)
    if kind == "clean":
        graph = "[0:a]anull[o]"
        inputs = ["-i", speech]
    elif kind == "dc":
        shift = rng.choice([0.04, 0.08, 0.15])
        graph = f"[0:a]aformat=sample_fmts=flt,dcshift=shift={shift}[o]"
        inputs = ["-i", speech]
    elif kind == "tone":
        freq = rng.choice([110, 196, 261.63, 440])
        level = rng.choice([0.05, 0.1, 0.2])
        # The bed runs past the speech and starts mid-waveform: its edges are not silent.
        graph = (f"aevalsrc='{level}*sin(2*PI*{freq}*t+1.1)':s=48000:d=6[bed];"
                 "[0:a]aresample=48000,apad=pad_dur=0.7,adelay=300[v];[v][bed]amix=inputs=2:duration=shortest:normalize=0[o]")
        inputs = ["-i", speech]
    elif kind == "music":
        chords = [(261.63, 329.63, 392.0), (220.0, 261.63, 329.63), (174.61, 220.0, 261.63), (196.0, 246.94, 293.66)]
        terms = []
        for k in range(12):
            a, b, c = chords[k % 4]
            window = f"between(t,{k * 0.5},{k * 0.5 + 0.5})"
            terms.append(f"{window}*(sin(2*PI*{a}*t)+sin(2*PI*{b}*t)+0.7*sin(2*PI*{c}*t))")
        graph = (f"aevalsrc='0.04*({'+'.join(terms)})':s=44100:d=5.7[bed];"
                 "[0:a]aresample=44100,apad=pad_dur=0.5,adelay=200[v];[v][bed]amix=inputs=2:duration=shortest:normalize=0[o]")
        inputs = ["-i", speech]
    elif kind == "noise":
        color = rng.choice(["pink", "brown"])
        amplitude = rng.choice([0.01, 0.02, 0.03])
        graph = (f"anoisesrc=c={color}:a={amplitude}:r=44100:d=6:s={seed}[bed];"
                 "[0:a]aresample=44100,apad=pad_dur=0.8,adelay=250[v];[v][bed]amix=inputs=2:duration=shortest:normalize=0[o]")
        inputs = ["-i", speech]
    elif kind == "hot":
        drive = rng.choice([14, 17, 20])
        graph = f"[0:a]aformat=sample_fmts=flt,volume={drive}dB,alimiter=limit=0.98:level=false:attack=1:release=20[o]"
        inputs = ["-i", speech]
    elif kind == "quiet":
        graph = f"[0:a]volume=-{rng.choice([28, 32, 36])}dB[o]"
        inputs = ["-i", speech]
        codec = ["-c:a", "pcm_s24le"] if ext == "wav" else codec
    elif kind == "hum":
        base = rng.choice([50, 60])
        level = rng.choice([0.01, 0.03])
        graph = (f"aevalsrc='{level}*(sin(2*PI*{base}*t)+0.5*sin(2*PI*{base * 3}*t)+0.25*sin(2*PI*{base * 5}*t))':s=44100:d=6[bed];"
                 "[0:a]aresample=44100,apad=pad_dur=0.8,adelay=150[v];[v][bed]amix=inputs=2:duration=shortest:normalize=0[o]")
        inputs = ["-i", speech]
    elif kind == "peaky":
        ext, codec = [("ogg", ["-c:a", "libvorbis", "-q:a", "5"]), ("webm", ["-c:a", "libopus", "-b:a", "96k"])][index % 2]
        path = os.path.join(out, f"{kind}{index:02d}.{ext}")
        rate = 48000
        graph = "[0:a]anull[o]"
        inputs = ["-i", CHANNEL_NAMES[(index // 2) % len(CHANNEL_NAMES)]]
    else:
        raise ValueError(kind)
    ffmpeg(inputs + ["-filter_complex", graph, "-map", "[o]", "-ac", "1", "-ar", str(rate)] + codec + [path])
    return path


KINDS = ["clean", "dc", "tone", "music", "noise", "hot", "quiet", "hum", "peaky"]


def main():
    out = sys.argv[1]
    playlists = int(sys.argv[2]) if len(sys.argv) > 2 else 60
    clips_dir = os.path.join(out, "clips")
    os.makedirs(clips_dir, exist_ok=True)
    rng = random.Random(20)
    clips = {}
    for kind in KINDS:
        for index in range(4):
            clips[make(clips_dir, kind, index, rng)] = kind
    names = sorted(clips)
    by_kind = {kind: [n for n in names if clips[n] == kind] for kind in KINDS}
    ringtones = []
    for i in range(playlists):
        # Every ringtone leads with a difficult kind (in turn), then 0-3 clips of any kind.
        kind = KINDS[1 + i % (len(KINDS) - 1)] if i % 10 else "clean"
        first = by_kind[kind][(i // len(KINDS)) % 4]
        rest = rng.sample(names, rng.randint(0, 3))
        ringtones.append({"id": f"r{i:03d}", "clips": [first] + [n for n in rest if n != first]})
    with open(os.path.join(out, "corpus.json"), "w") as f:
        json.dump({"clips": clips, "ringtones": ringtones}, f, indent=1)
    # The dense playlists: a generator of their own, so the corpus above stays as it was.
    beds = [n for n in names if clips[n] in ("tone", "music", "noise", "hum")]
    dense_rng = random.Random(33)
    dense = [{"id": f"b{i:03d}", "clips": dense_rng.sample(beds, dense_rng.randint(3, 8))} for i in range(playlists)]
    with open(os.path.join(out, "corpus-beds.json"), "w") as f:
        json.dump({"clips": {n: clips[n] for n in beds}, "ringtones": dense}, f, indent=1)


if __name__ == "__main__":
    main()
