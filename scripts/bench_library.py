#!/usr/bin/env python3
"""Makes the benchmark's library: the clips imported, 20 playlists of 3-5 of them, one daily voice
alarm on each (each alarm's ringtone is built as it is added). Writes the first playlist's clip
files, one per line, to PLAYLIST_FILE. Usage: bench_library.py VOICEALARM DATA_DIR CLIPS_DIR PLAYLIST_FILE"""
import os, random, subprocess, sys

binary, data_dir, clips_dir, playlist_file = sys.argv[1:5]
def run(*args):
    return subprocess.run([binary, "--data-dir", data_dir, "-q", *args], check=True, capture_output=True, text=True).stdout.strip()

files = sorted(os.path.join(clips_dir, f) for f in os.listdir(clips_dir))
ids = {f: run("clip", "import", f) for f in files}
rng = random.Random(20)
for i in range(20):
    chosen = rng.sample(files, rng.randint(3, 5))
    if i == 0:
        with open(playlist_file, "w") as out:
            out.write("\n".join(chosen) + "\n")
    run("playlist", "create", f"bench{i:02d}", *[ids[f] for f in chosen])
    run("alarm", "add", f"bench{i:02d}", "--at", f"05:{i:02d}", "--days", "daily")
