#!/usr/bin/env bash
# make bench-start: how fast `voicealarm` starts for commands that neither render nor play
# (--version, `alarm list` on a 20-alarm library, doctor), built as the package builds it
# (release, Swift's runtime linked in, bind-now), against the same commands of BASE built the
# same way in the same run, and against `sqlite3 -version` as the floor. hyperfine measures the
# wall time; /usr/bin/time the resident memory of `alarm list`; /proc the idle daemon's.
# BASE (BENCH_START_BASE) defaults to the last commit that linked all of FFmpeg.
set -euo pipefail
cd "$(dirname "$0")/.."
BASE=${BENCH_START_BASE:-618cbc0}
RUNS=${BENCH_START_RUNS:-60}
flags=(-c release --product voicealarm --static-swift-stdlib --disable-local-rpath -Xlinker -z -Xlinker now)
command -v hyperfine >/dev/null || { echo "bench-start: hyperfine is missing (make deps installs it)" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/voicealarm-bench-start.XXXXXX")
daemons=()
cleanup() {
  for pid in "${daemons[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

base_commit=$(git rev-parse --verify "$BASE^{commit}")
this_commit=$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- Sources Package.swift || echo "+changes")
echo "Building this tree ($this_commit) as the package does…" >&2
swift build "${flags[@]}" --build-path .build/start/this >/dev/null
this=$PWD/.build/start/this/release/voicealarm
# BASE's sources, unpacked once per commit (its build folder is kept beside them between runs).
base_tree=.build/start/base-$base_commit
if [ ! -f "$base_tree/Package.swift" ]; then
  rm -rf .build/start/base-*
  mkdir -p "$base_tree"
  git archive "$base_commit" | tar -x -C "$base_tree"
fi
echo "Building $BASE (${base_commit:0:7}) the same way…" >&2
swift build "${flags[@]}" --package-path "$base_tree" >/dev/null
base=$PWD/$base_tree/.build/release/voicealarm

echo "Making a library of 20 alarms…" >&2
mkdir -p "$work/clips"
cp SampleAudio/calm.wav SampleAudio/grateful.m4a SampleAudio/kind.ogg SampleAudio/manifesto.flac SampleAudio/ready.mp3 SampleAudio/strong.flac "$work/clips/"
python3 scripts/bench_library.py "$this" "$work/data" "$work/clips" "$work/playlist.txt"
alarms=$("$this" --data-dir "$work/data" alarm list --json | python3 -c "import json,sys; print(len(json.load(sys.stdin)))")
[ "$alarms" = 20 ] || { echo "bench-start: the library holds $alarms alarms, not 20" >&2; exit 1; }
for bin in "$base" "$this"; do
  cmp -s <("$base" --data-dir "$work/data" alarm list --json) <("$bin" --data-dir "$work/data" alarm list --json) ||
    { echo "bench-start: $bin lists the alarms otherwise than $BASE" >&2; exit 1; }
done

# doctor exits 1 when it finds something to fix (here: no daemon runs), which is its answer.
echo "Timing ($RUNS runs each)…" >&2
hyperfine -N -w 5 -r "$RUNS" -i --export-json "$work/times.json" \
  -n floor 'sqlite3 -version' \
  -n "base --version" "$base --version" -n "this --version" "$this --version" \
  -n "base alarm list" "$base --data-dir $work/data alarm list" -n "this alarm list" "$this --data-dir $work/data alarm list" \
  -n "base doctor" "$base --data-dir $work/data doctor" -n "this doctor" "$this --data-dir $work/data doctor" >/dev/null 2>&1

# Resident memory: the peak of `alarm list` (median of 5), and the daemon's after 3 s idle.
peak() { for _ in 1 2 3 4 5; do /usr/bin/time -f %M "$1" --data-dir "$work/data" alarm list 2>&1 >/dev/null | tail -1; done | sort -n | sed -n 3p; }
idle() {
  local pid rss
  # The library itself, one daemon after the other: a copy would give every voice file a new
  # inode, which the daemon's start takes as a file to check again (decoding it opens FFmpeg).
  "$1" --data-dir "$work/data" -q daemon >/dev/null 2>"$work/daemon-$2.err" &
  pid=$!
  daemons+=("$pid")
  sleep 3
  rss=$(awk '/^VmRSS/ { print $2 }' "/proc/$pid/status" 2>/dev/null || true)
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  [ -n "$rss" ] || { echo "bench-start: the $2 daemon did not stay up: $(tail -1 "$work/daemon-$2.err")" >&2; exit 1; }
  echo "$rss"
}
list_base=$(peak "$base") list_this=$(peak "$this")
idle_base=$(idle "$base" base) idle_this=$(idle "$this" this)
libs_base=$(ldd "$base" | wc -l) libs_this=$(ldd "$this" | wc -l)

python3 - "$work/times.json" "$BASE" "$this_commit" "$list_base" "$list_this" "$idle_base" "$idle_this" "$libs_base" "$libs_this" <<'EOF'
import json, sys
times, base, this, list_base, list_this, idle_base, idle_this, libs_base, libs_this = sys.argv[1:]
rows = {r["command"]: r for r in json.load(open(times))["results"]}
ms = lambda name: rows[name]["median"] * 1000
floor = ms("floor")
print(f"Start-up wall time, median of {len(rows['floor']['times'])} runs (hyperfine), release builds as packaged:")
print(f"  {'command':<12} {base + ' (base)':>16} {this + ' (this)':>22} {'this/base':>10} {'this/floor':>11}")
for command in ["--version", "alarm list", "doctor"]:
    b, t = ms(f"base {command}"), ms(f"this {command}")
    print(f"  {command:<12} {b:>13.1f} ms {t:>19.1f} ms {t / b:>10.2f} {t / floor:>10.1f}x")
print(f"  floor: sqlite3 -version {floor:.1f} ms")
print(f"Shared libraries loaded at start (ldd): base {libs_base}, this {libs_this}")
print(f"Resident memory: alarm list peak {int(list_base) / 1024:.1f} MB -> {int(list_this) / 1024:.1f} MB; "
      f"idle daemon {int(idle_base) / 1024:.1f} MB -> {int(idle_this) / 1024:.1f} MB")
EOF
