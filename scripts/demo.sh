#!/usr/bin/env bash
# The main job on SampleAudio with the built-in defaults, in a throwaway folder.
set -euo pipefail
bin=${1:-.build/debug/voicealarm}
cd "$(dirname "$0")/.."
out=$(mktemp -d "${TMPDIR:-/tmp}/voicealarm-demo.XXXXXX")
clips=(SampleAudio/calm.wav SampleAudio/ready.mp3 SampleAudio/grateful.m4a SampleAudio/strong.flac SampleAudio/kind.ogg SampleAudio/manifesto.flac)

echo
echo "1. Stitching six spoken affirmations (wav, mp3, m4a, flac, ogg) into one ringtone, in order, under the 29-second cap:"
echo "   voicealarm render -o $out/morning.m4a ${clips[*]}"
"$bin" render -o "$out/morning.m4a" "${clips[@]}" >/dev/null
echo
echo "2. A single long recording (the 35-second manifesto) is cut at the cap and faded out:"
echo "   voicealarm render -o $out/manifesto.caf SampleAudio/manifesto.flac"
"$bin" render -o "$out/manifesto.caf" SampleAudio/manifesto.flac >/dev/null
echo
echo "3. Checking that both files are sounds an alarm will accept:"
"$bin" check "$out/morning.m4a"
"$bin" check "$out/manifesto.caf"
echo
echo "Your ringtones are in $out (delete the folder when done)."
