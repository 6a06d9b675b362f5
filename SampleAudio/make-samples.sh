#!/usr/bin/env bash
# Regenerates SampleAudio/: spoken affirmations (espeak-ng) in varied formats, rates and
# channel counts, and VoiceAlarm's default alarm tone (sox). Everything here is made by the
# project. Needs: espeak-ng, ffmpeg, sox.
set -euo pipefail
cd "$(dirname "$0")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

speak() { # name voice speed text
  espeak-ng -v "$2" -s "$3" -w "$work/$1.wav" "$4"
}
speak calm      en-us 150 "I am calm. I breathe in, and I let the day begin."
speak ready     en-gb 145 "I am ready for today. I have everything I need."
speak grateful  en-us 140 "I am grateful for this morning, and for the people I love."
speak strong    en-gb 150 "I am strong. I can do hard things, one step at a time."
speak kind      en-us 145 "I am kind to myself. Progress, not perfection."
speak manifesto en-us 140 "This is my manifesto. I wake up with purpose. I move my body. I learn something new every day. I choose patience over panic. I keep my promises to myself. I make space for rest. I speak to myself the way I would speak to a friend. I do the hard thing first. I celebrate small wins. I drink water before coffee. I look up at the sky at least once. I forgive quickly and I ask for help when I need it. I end the day proud of the effort I made."

# Varied containers, codecs, rates and channel counts, as real imports arrive.
ffmpeg -v error -y -i "$work/calm.wav"     -ar 48000 -ac 1 -c:a pcm_s16le calm.wav
ffmpeg -v error -y -i "$work/ready.wav"    -ar 44100 -ac 2 -c:a libmp3lame -b:a 128k ready.mp3
ffmpeg -v error -y -i "$work/grateful.wav" -ar 44100 -ac 1 -c:a aac -b:a 96k grateful.m4a
ffmpeg -v error -y -i "$work/strong.wav"   -ar 96000 -ac 2 -c:a flac strong.flac
ffmpeg -v error -y -i "$work/kind.wav"     -ar 32000 -ac 1 -c:a libvorbis -q:a 4 kind.ogg
ffmpeg -v error -y -i "$work/manifesto.wav" -ar 24000 -ac 1 -c:a flac manifesto.flac

# The default tone: a soft two-note chime, 8 s, looping cleanly, in the documented-safe caf/PCM.
sox -n -r 44100 -c 1 "$work/note1.wav" synth 0.9 sine 880 fade q 0.01 0.9 0.85 vol 0.5
sox -n -r 44100 -c 1 "$work/note2.wav" synth 0.9 sine 1318.5 fade q 0.01 0.9 0.85 vol 0.4
sox -n -r 44100 -c 1 "$work/rest.wav" trim 0 1.2
sox "$work/note1.wav" "$work/note2.wav" "$work/rest.wav" "$work/note1.wav" "$work/note2.wav" "$work/rest.wav" \
    "$work/note1.wav" "$work/note2.wav" "$work/rest.wav" "$work/tone.wav"
ffmpeg -v error -y -i "$work/tone.wav" -c:a pcm_s16le default-tone.caf
ls -l
