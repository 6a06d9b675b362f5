#!/usr/bin/env bash
# The walk rows of make bench: a library of 1,000 voice alarms (BENCH_WALK_ALARMS) with nothing to
# build, walked whole by `build --all`, `reconcile` and a settings change that rebuilds nothing,
# each against `alarm list` of the same library (which reads every alarm and checks its voice file)
# in the same run; medians of 3. Usage: bench_walk.sh [BIN WORK RESULTS] — alone (make bench-walk)
# it builds the release binary and prints its rows.
set -euo pipefail
cd "$(dirname "$0")/.."
alone=0
if [ $# -eq 0 ]; then
  alone=1
  swift build -c release --product voicealarm >/dev/null
  bin=$PWD/.build/release/voicealarm
  work=$(mktemp -d "${TMPDIR:-/tmp}/voicealarm-walk.XXXXXX")
  trap 'rm -rf "$work"' EXIT
  results="$work/results.txt"
else
  bin=$1 work=$2 results=$3
fi
alarms=${BENCH_WALK_ALARMS:-1000}
lib="$work/walk-library"
echo "Making a library of $alarms voice alarms…" >&2
sox -n -r 44100 -c 1 "$work/walk.wav" synth 0.6 sine 440 vol 0.3
python3 scripts/bench_walk.py "$bin" "$lib" "$work/walk.wav" "$alarms"

now() { date +%s%N; }
# Median of 3 runs of a command that must succeed, in seconds.
median3() {
  local times=() s
  for _ in 1 2 3; do
    s=$(now)
    "$@" >/dev/null 2>"$work/walk.err" || { echo "bench: failed: $* ($(tail -1 "$work/walk.err"))" >&2; exit 1; }
    times+=("$(( $(now) - s ))")
  done
  python3 -c "import statistics,sys; print(f'{statistics.median(int(v) for v in sys.argv[1:]) / 1e9:.3f}')" "${times[@]}"
}
list=$(median3 "$bin" --data-dir "$lib" alarm list)
build=$(median3 "$bin" --data-dir "$lib" build --all)
reconcile=$(median3 "$bin" --data-dir "$lib" reconcile)
settings=$(median3 "$bin" --data-dir "$lib" settings gap 0.3)
voice=$("$bin" --data-dir "$lib" --json alarm list | python3 -c "import json,sys; print(sum(1 for a in json.load(sys.stdin) if a['voice'] and not a['soundReason']))")
[ "$voice" -eq "$alarms" ] || { echo "bench: the walk left $voice of $alarms alarms on their voice" >&2; exit 1; }
echo "walk|walk|$build $reconcile $settings $list $alarms" >> "$results"
if [ "$alone" = 1 ]; then
  python3 - "$results" <<'PY'
import sys
build, reconcile, settings, listing, alarms = [float(v) for v in open(sys.argv[1]).read().split("|")[2].split()]
for name, value in [("build --all", build), ("reconcile", reconcile), ("settings gap 0.3", settings)]:
    print(f"(n) {name}, {int(alarms)} voice alarms, nothing to build: {value:.3f} s, {value / listing:.2f} x alarm list ({listing:.3f} s)")
PY
fi
