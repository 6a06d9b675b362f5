#!/usr/bin/env bash
# make bench: VoiceAlarm's batch against a shell loop around the ffmpeg CLI and against the
# encoder-only bound, measured in one run on this machine, for m4a and caf. Prints a table.
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
timed() { local s; s=$(now); "$@" >/dev/null 2>&1 || true; secs "$s" "$(now)"; }
results="$work/results.txt"
: > "$results"
row() { echo "$1|$2|$3" >> "$results"; echo "   $1 $2: $3" >&2; }

for fmt in m4a caf; do
  echo "Measuring $fmt…" >&2
  like="--gap 0 --no-trim-silence --no-normalize"
  a=$(timed "$bin" batch "$work/small-$fmt.json" --out "$work/like-$fmt" --jobs "$JOBS" $like)
  b=$(timed xargs -P "$JOBS" -d '\n' -n 1 sh -c < "$work/cli-plain-$fmt.txt")
  a2=$(timed "$bin" batch "$work/small-$fmt.json" --out "$work/default-$fmt" --jobs "$JOBS")
  b2=$(timed xargs -P "$JOBS" -d '\n' -n 1 sh -c < "$work/cli-processed-$fmt.txt")
  for f in "$work/like-$fmt"/p*."$fmt"; do ffprobe -v error -show_entries format=duration -of csv=p=0 "$f"; done > "$work/durations-$fmt.txt"
  mkdir -p "$work/bound-$fmt"
  c=$("$bound" "$fmt" SampleAudio/manifesto.flac "$work/durations-$fmt.txt" "$work/bound-$fmt" "$JOBS")
  d=$(timed "$bin" batch "$work/small-$fmt.json" --out "$work/default-$fmt" --jobs "$JOBS")
  changed=$(python3 -c "import json; m=json.load(open('$work/small-$fmt.json')); print(m['ringtones'][0]['clips'][0])")
  users=$(python3 -c "import json; m=json.load(open('$work/small-$fmt.json')); print(sum('$changed' in r['clips'] for r in m['ringtones']))")
  ffmpeg -v error -y -i "$changed" -af "volume=0.9" "$work/changed.${changed##*.}" && mv "$work/changed.${changed##*.}" "$changed"
  e=$({ "$bin" batch "$work/small-$fmt.json" --out "$work/default-$fmt" --jobs "$JOBS" --json 2>/dev/null || true; } \
      | python3 -c "import json,sys; o=json.load(sys.stdin); print(o['seconds'], len(o['built']))")
  # Shards: SHARDS processes at once into one folder (as an Indexed Job on one machine), one job each,
  # against one process with the same total jobs; both cold, default processing.
  one=$(timed "$bin" batch "$work/small-$fmt.json" --out "$work/one-$fmt" --jobs "$SHARDS")
  s=$(now)
  for k in $(seq 1 "$SHARDS"); do "$bin" batch "$work/small-$fmt.json" --out "$work/shards-$fmt" --shard "$k/$SHARDS" --jobs 1 >/dev/null 2>&1 & done
  wait
  sharded=$(secs "$s" "$(now)")
  "$bin" batch -q "$work/small-$fmt.json" --out "$work/shards-$fmt" --verify >/dev/null || echo "   the $SHARDS shards did not complete the set" >&2
  # Peak RSS, at 200 and at 1,000 ringtones (like-for-like settings, to keep the run short).
  rss_small=$({ /usr/bin/time -f %M "$bin" batch "$work/small-$fmt.json" --out "$work/rss-small-$fmt" --jobs "$JOBS" $like 2>&1 >/dev/null || true; } | tail -1)
  rss_big=$({ /usr/bin/time -f %M "$bin" batch "$work/big-$fmt.json" --out "$work/rss-big-$fmt" --jobs "$JOBS" $like 2>&1 >/dev/null || true; } | tail -1)
  for mode in like default; do
    python3 -c "import json; i=json.load(open('$work/$mode-$fmt/.voicealarm-batch.d/shard-1-of-1.json')); n=len(i['ringtones']); print(f'   {n} of $N $fmt ringtones built ($mode)')" >&2
  done
  row "$fmt" "like" "$a $b $c"
  row "$fmt" "default" "$a2 $b2"
  row "$fmt" "rerun" "$d ${e% *} ${e#* } $users"
  row "$fmt" "rss" "${rss_small:-0} ${rss_big:-0}"
  row "$fmt" "shards" "$one $sharded $SHARDS"
done

python3 - "$results" "$N" "$BIG" "$JOBS" <<'PY'
import sys
rows = {}
for line in open(sys.argv[1]):
    fmt, kind, values = line.strip().split("|")
    rows[(fmt, kind)] = [float(v) for v in values.split()]
n, big, jobs = sys.argv[2], sys.argv[3], sys.argv[4]
print(f"VoiceAlarm batch benchmark: {n} playlists of 3-8 clips from 40 clips in mixed formats and rates, {jobs} jobs.\n")
print(f"{'format':6} {'measure':78} {'seconds':>9} {'ratio':>28}")
for fmt in ["m4a", "caf"]:
    a, b, c = rows[(fmt, "like")]
    a2, b2 = rows[(fmt, "default")]
    d, e, built, users = rows[(fmt, "rerun")]
    small, bigger = rows[(fmt, "rss")]
    one, sharded, shards = rows[(fmt, "shards")]
    lines = [
        ("(a) voicealarm batch, cold, like-for-like (--gap 0 --no-trim-silence --no-normalize)", a, f"{a / b:.2f} x CLI, {a / c:.2f} x bound"),
        ("(b) ffmpeg CLI, one process per playlist: resample + concat + cut, xargs -P", b, ""),
        ("(c) encoder-only bound: same encoder, in-process, PCM in memory, all cores", c, ""),
        ("(a') voicealarm batch, cold, default processing (trim, gaps, loudness, check)", a2, f"{a2 / b2:.2f} x CLI chain"),
        ("(b') ffmpeg CLI, closest chain: silenceremove, gaps, loudnorm", b2, ""),
        ("(d) no-change re-run", d, f"{d / a2:.3f} x cold"),
        (f"(e) re-run after one clip changed ({int(built)} rebuilt; {int(users)} use it)", e, f"{e / a2:.3f} x cold"),
        (f"(g) one process, --jobs {int(shards)}, cold, default processing", one, ""),
        (f"(h) {int(shards)} shard processes at once into one --out, --jobs 1 each (same total jobs)", sharded, f"{sharded / one:.2f} x one process"),
    ]
    for name, value, ratio in lines:
        print(f"{fmt:6} {name:78} {value:9.3f} {ratio:>28}")
    print(f"{fmt:6} {'(f) peak RSS at ' + n + ' / ' + big + ' ringtones':78} {small / 1024:6.1f} MB / {bigger / 1024:.1f} MB")
    print()
PY
