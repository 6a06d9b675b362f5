#!/usr/bin/env bash
# make bench: VoiceAlarm's batch against a shell loop around the ffmpeg CLI and against the
# encoder-only bounds (in-process, and one encoder process per core at once), measured in one run
# on this machine, for m4a and caf; peak and idle memory; one render's latency against its own
# encoder time; a settings change rebuilding 20 voice alarms; walks over 1,000 alarms with nothing
# to build (scripts/bench_walk.sh); the difficult recordings' speed, loudness, true peak and joins
# and, per corpus, the passes and the loudnorm peer (scripts/bench_corpus.py). Prints a table.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${BENCH_RINGTONES:-200}
BIG=${BENCH_RSS_RINGTONES:-1000}
JOBS=$(nproc)
SHARDS=${BENCH_SHARDS:-4}
echo "Building release binaries…" >&2
swift build -c release >/dev/null
bin=$PWD/.build/release/voicealarm
bound=$PWD/.build/release/voicealarm-bench
work=$(mktemp -d "${TMPDIR:-/tmp}/voicealarm-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
echo "Generating 40 clips and $N / $BIG playlists in $work…" >&2
python3 scripts/bench_setup.py "$work" "$N" "$BIG" >/dev/null

now() { date +%s%N; }
secs() { python3 -c "print(f'{($2 - $1) / 1e9:.3f}')" "$@"; }
# A timed command that fails stops the benchmark: a failure's time is no measurement.
timed() { local s; s=$(now); "$@" >/dev/null 2>"$work/last.err" || { echo "bench: failed: $* ($(tail -1 "$work/last.err"))" >&2; exit 1; }; secs "$s" "$(now)"; }
median() { python3 -c "import statistics,sys; print(statistics.median(float(v) for v in sys.argv[1:]))" "$@"; }
peak_rss() { { /usr/bin/time -f %M "$@" 2>&1 >/dev/null || echo "bench: failed: $*" >&2; } | tail -1; }
results="$work/results.txt"
: > "$results"
row() { echo "$1|$2|$3" >> "$results"; echo "   $1 $2: $3" >&2; }

# The encoder bounds encode the ringtones' own samples: the like-for-like caf outputs, made first.
like="--gap 0 --no-trim-silence --no-normalize"
for fmt in caf m4a; do
  echo "Measuring $fmt…" >&2
  a=$(timed "$bin" batch "$work/small-$fmt.json" --out "$work/like-$fmt" --jobs "$JOBS" $like)
  b=$(timed sh -c "xargs -P $JOBS -d '\n' -n 1 sh -c < '$work/cli-plain-$fmt.txt'")
  s=$(now)
  rss_default=$(peak_rss "$bin" batch "$work/small-$fmt.json" --out "$work/default-$fmt" --jobs "$JOBS")
  a2=$(secs "$s" "$(now)")
  b2=$(timed sh -c "xargs -P $JOBS -d '\n' -n 1 sh -c < '$work/cli-processed-$fmt.txt'")
  ls "$work"/like-caf/p*.caf > "$work/bound-list.txt"
  mkdir -p "$work/bound-$fmt" "$work/loaded-$fmt"
  c=$("$bound" "$fmt" "$work/bound-list.txt" "$work/bound-$fmt" "$JOBS")
  # The loaded-machine bound: one encoder process per core, started together, a share of the same list each.
  at=$(python3 -c "import time; print(time.time() + 8)")
  pids=()
  for k in $(seq 1 "$JOBS"); do
    BENCH_START_AT=$at "$bound" "$fmt" "$work/bound-list.txt" "$work/loaded-$fmt" 1 "$k/$JOBS" > "$work/loaded-$fmt-$k.txt" &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do wait "$pid" || { echo "bench: an encoder process of the loaded bound failed" >&2; exit 1; }; done
  [ "$(cat "$work"/loaded-"$fmt"-*.txt | wc -l)" -eq "$JOBS" ] || { echo "bench: the loaded bound lacks a process's time" >&2; exit 1; }
  c2=$(cat "$work"/loaded-"$fmt"-*.txt | sort -n | tail -1)
  d=$(timed "$bin" batch "$work/small-$fmt.json" --out "$work/default-$fmt" --jobs "$JOBS")
  # The idle process: a batch with nothing to build (every library loaded, no job running);
  # and one job alone, so the second job's own cost shows too.
  echo '{"ringtones": []}' > "$work/empty.json"
  rss_idle=$(peak_rss "$bin" batch "$work/empty.json" --out "$work/empty-$fmt" --jobs "$JOBS")
  rss_one=$(peak_rss "$bin" batch "$work/small-$fmt.json" --out "$work/rss-one-$fmt" --jobs 1)
  changed=$(python3 -c "import json; m=json.load(open('$work/small-$fmt.json')); print(m['ringtones'][0]['clips'][0])")
  users=$(python3 -c "import json; m=json.load(open('$work/small-$fmt.json')); print(sum('$changed' in r['clips'] for r in m['ringtones']))")
  cp "$changed" "$work/original.${changed##*.}"
  ffmpeg -v error -y -i "$changed" -af "volume=0.9" "$work/changed.${changed##*.}" && mv "$work/changed.${changed##*.}" "$changed"
  e=$({ "$bin" batch "$work/small-$fmt.json" --out "$work/default-$fmt" --jobs "$JOBS" --json 2>/dev/null || true; } \
      | python3 -c "import json,sys; o=json.load(sys.stdin); print(o['seconds'], len(o['built']))")
  mv "$work/original.${changed##*.}" "$changed"
  # Shards: SHARDS processes at once into one folder (as an Indexed Job on one machine), one job each,
  # against one process with the same total jobs; both cold, default processing.
  one=$(timed "$bin" batch "$work/small-$fmt.json" --out "$work/one-$fmt" --jobs "$SHARDS")
  s=$(now)
  for k in $(seq 1 "$SHARDS"); do "$bin" batch "$work/small-$fmt.json" --out "$work/shards-$fmt" --shard "$k/$SHARDS" --jobs 1 >/dev/null 2>&1 & done
  wait
  sharded=$(secs "$s" "$(now)")
  "$bin" batch -q "$work/small-$fmt.json" --out "$work/shards-$fmt" --verify >/dev/null || echo "   the $SHARDS shards did not complete the set" >&2
  # Peak RSS at 200 and at 1,000 ringtones (like-for-like settings, to keep the run short).
  rss_small=$(peak_rss "$bin" batch "$work/small-$fmt.json" --out "$work/rss-small-$fmt" --jobs "$JOBS" $like)
  rss_big=$(peak_rss "$bin" batch "$work/big-$fmt.json" --out "$work/rss-big-$fmt" --jobs "$JOBS" $like)
  for mode in like default; do
    python3 -c "import json; i=json.load(open('$work/$mode-$fmt/.voicealarm-batch.d/shard-1-of-1.json')); n=len(i['ringtones']); print(f'   {n} of $N $fmt ringtones built ($mode)')" >&2
  done
  row "$fmt" "like" "$a $b $c $c2"
  row "$fmt" "default" "$a2 $b2"
  row "$fmt" "rerun" "$d ${e% *} ${e#* } $users"
  row "$fmt" "rss" "${rss_small:-0} ${rss_big:-0} ${rss_default:-0} ${rss_idle:-0} ${rss_one:-0}"
  row "$fmt" "shards" "$one $sharded $SHARDS"
done

# One render of a 29-second m4a (the 35-second manifesto, cut at the cap), default processing,
# against the encoder alone on that ringtone's own samples — the same render to 16-bit wav, whose
# only difference is the limiter's ceiling (0.3 dB under the true-peak ceiling, not 1.4): the
# m4a decoded again would be the codec's output, cheaper to encode; medians of five.
echo "Measuring one render…" >&2
mkdir -p "$work/single"
renders=(); encodes=()
for i in 1 2 3 4 5; do renders+=("$(timed "$bin" render -q -o "$work/single/manifesto.m4a" SampleAudio/manifesto.flac)"); done
timed "$bin" render -q -o "$work/single/manifesto.wav" SampleAudio/manifesto.flac >/dev/null
echo "$work/single/manifesto.wav" > "$work/single-list.txt"
for i in 1 2 3 4 5; do encodes+=("$("$bound" m4a "$work/single-list.txt" "$work/single" 1)"); done
single_seconds=$(ffprobe -v error -show_entries format=duration -of csv=p=0 "$work/single/manifesto.m4a")
row "single" "m4a" "$(median "${renders[@]}") $(median "${encodes[@]}") $single_seconds"

# A library with 20 voice alarms on 20 playlists of 3-5 clips: one settings change rebuilds all
# 20, against `build --all` rebuilding the same 20 (their files removed) and one render of one playlist.
echo "Measuring a settings change on 20 voice alarms…" >&2
lib="$work/library"
python3 scripts/bench_library.py "$bin" "$lib" "$work/clips" "$work/library-playlist.txt"
settings=$(timed "$bin" --data-dir "$lib" settings target-lufs -15)
voice=$("$bin" --data-dir "$lib" --json alarm list | python3 -c "import json,sys; print(sum(1 for a in json.load(sys.stdin) if a['voice'] and not a['soundReason']))")
[ "$voice" -eq 20 ] || { echo "bench: the settings change left $voice of 20 alarms on their voice" >&2; exit 1; }
rm -f "$lib"/Sounds/*
build_all=$(timed "$bin" --data-dir "$lib" build --all)
mapfile -t first < "$work/library-playlist.txt"
renders=()
for i in 1 2 3; do renders+=("$(timed "$bin" render -q -o "$work/single/playlist.m4a" "${first[@]}")"); done
row "library" "settings" "$settings $build_all $(median "${renders[@]}") $voice"

scripts/bench_walk.sh "$bin" "$work" "$results"

# Per corpus (speech; the same playlists over beds; the difficult recordings; their bedded clips):
# default processing against like-for-like and against ffmpeg's two-pass loudnorm, like-for-like
# against the loaded encoder bound, caf against the ffmpeg CLI, and each ringtone's loudness, true
# peak, joins and passes measured by independent tools.
for corpus in speech dense difficult beds; do
  case $corpus in speech) manifest=(--manifest "$work/small") ;; dense) manifest=(--manifest "$work/dense") ;; *) manifest=() ;; esac
  python3 scripts/bench_corpus.py "$bin" "$work" "$PWD/.build/venv/bin/python" "$results" "$JOBS" "$corpus" "${manifest[@]}" --bound "$bound"
done

python3 scripts/bench_table.py "$results" "$N" "$BIG" "$JOBS"

# The web page: its load on loopback, and a recording from upload to rebuilt ringtone.
echo "Measuring the web page…" >&2
mkdir -p "$work/web"
"$PWD/.build/venv/bin/python" scripts/bench_web.py "$bin" "$work/web" "$PWD/.build/venv/bin/python"
