#!/usr/bin/env bash
# The main job on SampleAudio with the built-in defaults, in a throwaway data dir.
set -euo pipefail
bin=${1:-.build/debug/voicealarm}
cd "$(dirname "$0")/.."
work=$(mktemp -d "${TMPDIR:-/tmp}/voicealarm-demo.XXXXXX")
va() { "$bin" --data-dir "$work/data" "$@"; }
say() { printf '\n%s\n' "$*"; }

say "1. Stitching six spoken affirmations (wav, mp3, m4a, flac, ogg) into one ringtone, in order, under the 29-second cap:"
echo "   voicealarm render -o $work/morning.m4a SampleAudio/{calm.wav,ready.mp3,grateful.m4a,strong.flac,kind.ogg,manifesto.flac}"
"$bin" render -o "$work/morning.m4a" SampleAudio/{calm.wav,ready.mp3,grateful.m4a,strong.flac,kind.ogg,manifesto.flac} >/dev/null
"$bin" check "$work/morning.m4a"

say "2. Importing the affirmations into a library (in $work/data):"
calm=$(va clip import SampleAudio/calm.wav --title "I am calm")
ready=$(va clip import SampleAudio/ready.mp3 --title "I am ready")
grateful=$(va clip import SampleAudio/grateful.m4a --title "I am grateful")
manifesto=$(va clip import SampleAudio/manifesto.flac --title "My manifesto")
va clip list

say "3. A 'morning' playlist of three clips, and the 35-second manifesto as the manifesto recording:"
va -q playlist create morning "$calm" "$ready" "$grateful" >/dev/null
va playlist show morning
va -q manifesto set "$manifesto" >/dev/null

say "4. Two alarms: weekdays at 06:45 on the playlist, Saturday at 08:30 on the manifesto. Each gets its own ringtone, named by its id:"
weekday=$(va alarm add morning --at 06:45 --days mon,tue,wed,thu,fri --label "Work days")
saturday=$(va -q alarm add manifesto --at 08:30 --days sat)
va alarm list
for id in "$weekday" "$saturday"; do
  file=$(va alarm list --json | python3 -c "import json,sys; print([a['sound'] for a in json.load(sys.stdin) if a['id']=='$id'][0])")
  echo "   $file: $("$bin" check --json "$work/data/Sounds/$file" | python3 -c "import json,sys; v=json.load(sys.stdin); print(f\"{v['codec']}, {v['duration']} s, shippable: {v['shippable']}\")")"
done

say "5. Re-recording a clip rebuilds exactly the alarms that use it (here: the weekday one) and re-schedules them:"
va clip replace "$ready" SampleAudio/strong.flac >/dev/null

say "6. 'Wake up to my voice' off for the Saturday alarm: it rings with the default tone and its voice file is deleted:"
va voice off "$saturday" >/dev/null
ls "$work/data/Sounds"

say "7. What the scheduler holds now (the embedded one; 'voicealarm daemon' rings it, or use --scheduler systemd):"
va scheduler list

say "8. Ringing the weekday alarm for 8 seconds, through ALSA, into a file (ALSA's file plugin stands in for a speaker):"
cat > "$work/asound.conf" <<ALSA
pcm.nullsink { type null }
pcm.!default { type file slave.pcm "nullsink" file "$work/played.wav" format "wav" }
ALSA
ALSA_CONFIG_PATH="$work/asound.conf" va ring "$weekday" --max-seconds 8 >/dev/null
echo "   played: $("$bin" check "$work/played.wav")"
echo "   the ringtone loops until stopped ('voicealarm stop'); a missing or broken voice file rings the default tone."

say "9. Batch-building ringtones for a pipeline from a manifest (a progress bar shows on a terminal); the second run skips what did not change:"
cat > "$work/manifest.json" <<JSON
{"format": "m4a", "ringtones": [
  {"id": "morning", "clips": ["$PWD/SampleAudio/calm.wav", "$PWD/SampleAudio/ready.mp3", "$PWD/SampleAudio/grateful.m4a"]},
  {"id": "evening", "clips": ["$PWD/SampleAudio/kind.ogg", "$PWD/SampleAudio/strong.flac"], "format": "caf"},
  {"id": "manifesto", "clips": ["$PWD/SampleAudio/manifesto.flac"]}
]}
JSON
"$bin" batch "$work/manifest.json" --out "$work/batch"
"$bin" batch "$work/manifest.json" --out "$work/batch"
ls "$work/batch"

say "Everything is in $work (delete the folder when done)."
