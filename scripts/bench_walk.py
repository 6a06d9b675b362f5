#!/usr/bin/env python3
"""Makes the walk benchmark's library: one short clip, 200 playlists of it and 1,000 daily voice
alarms, written as the library's own last-known-good copy and brought back by `voicealarm repair`
(which builds every voice file), so making it takes seconds, not 1,000 commands.
Usage: bench_walk.py VOICEALARM DATA_DIR CLIP_FILE ALARMS"""
import json, os, subprocess, sys, uuid

binary, data_dir, clip_file, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
def run(*args):
    return subprocess.run([binary, "--data-dir", data_dir, "-q", *args], check=True, capture_output=True, text=True).stdout.strip()

run("clip", "import", clip_file)
backup_path = os.path.join(data_dir, "library-backup.json")
with open(backup_path) as f:
    backup = json.load(f)
clip = backup["clips"][0]["id"]
playlists = [f"walk{i:03d}" for i in range((count + 4) // 5)]
backup["playlists"] = playlists
backup["playlistClips"] = {name: [clip] for name in playlists}
backup["alarms"] = [{"id": str(uuid.UUID(int=n + 1)).upper(), "target": playlists[n // 5], "isManifesto": False,
                     "hour": n // 60, "minute": n % 60, "days": 127, "voice": True} for n in range(count)]
with open(backup_path, "w") as f:
    json.dump(backup, f)
for suffix in ("", "-wal", "-shm"):
    path = os.path.join(data_dir, "voicealarm.sqlite" + suffix)
    if os.path.exists(path):
        os.remove(path)
run("repair")
listed = json.loads(subprocess.run([binary, "--data-dir", data_dir, "--json", "alarm", "list"], check=True, capture_output=True, text=True).stdout)
voice = sum(1 for a in listed if a["voice"] and not a["soundReason"])
if voice != count:
    sys.exit(f"bench_walk: {voice} of {count} alarms are on their voice after repair")
