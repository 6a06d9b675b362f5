#!/usr/bin/env bash
# A one-node Slurm on this machine (make test-cluster): munged, slurmctld and slurmd, all on a
# configuration, key, spool, logs and pid files in one project-owned folder (default .build/slurm).
# Nothing is written to /etc, /run or /var: the daemons are pointed at the folder's slurm.conf and
# a private munge socket, an existing /etc/slurm/slurm.conf is neither read nor changed, and the
# ports (6917, 6918) are not Slurm's defaults, so a real Slurm on the machine is left alone.
# No cgroups: process tracking by /proc, no task plugin, no accounting.
#
#   scripts/slurm_cluster.sh start [DIR]    start (or reuse one already running from DIR); idle node
#   scripts/slurm_cluster.sh stop [DIR]     cancel its jobs, stop its daemons; nothing left running
#   scripts/slurm_cluster.sh status [DIR]   exit 0 if it runs and the node answers
#
# Clients find it with SLURM_CONF=DIR/slurm.conf (start prints the line). Root only: slurmd runs
# each job as its submitter.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
action=${1:-}
dir=${2:-${SLURM_STATE_DIR:-$here/.build/slurm}}
case $action in start|stop|status) ;; *) echo "usage: $0 start|stop|status [DIR]" >&2; exit 64 ;; esac
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

conf=$dir/slurm.conf
socket=$dir/munge/munge.socket
node=$(hostname -s)
export SLURM_CONF=$conf
START_TIMEOUT=${SLURM_START_TIMEOUT:-60}   # seconds for the node to show idle
MARKER="# Written by scripts/slurm_cluster.sh (VoiceAlarm's make test-cluster); rewritten on every start."

die() { echo "error: $*" >&2; exit 1; }

for tool in munged slurmctld slurmd sinfo scontrol squeue scancel; do
  command -v "$tool" >/dev/null || die "$tool: not found; install Debian's slurm-wlm and munge (make test-cluster does)"
done
[ "$(id -u)" = 0 ] || die "a Slurm node runs as root (slurmd starts each job as its user): run this as root or through sudo"
# A slurm.conf this script did not write is someone else's: not overwritten, its daemons not touched.
[ ! -e "$conf" ] || head -n1 "$conf" | grep -qxF "$MARKER" ||
  die "$conf exists and was not written by this script; leaving it alone (move it away or give another folder)"
# A unix socket's path holds at most 107 bytes.
[ ${#socket} -le 100 ] || die "$dir: too deep for munge's socket ($socket); give a shorter folder"

# Whether PID is alive and is NAME (not a zombie, not a reused pid).
alive() {
  local pid=$1 name=$2
  [ -n "$pid" ] && [ -r "/proc/$pid/stat" ] || return 1
  [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$name" ] || return 1
  [ "$(sed 's/^.*) //' "/proc/$pid/stat" 2>/dev/null | cut -d' ' -f1)" != Z ]
}

# The pid recorded in FILE if that process is alive and is NAME.
pid_of() {
  local pid
  [ -s "$1" ] || return 1
  pid=$(tr -dc 0-9 <"$1")
  alive "$pid" "$2" && echo "$pid"
}

node_state() { sinfo -h -N -n "$node" -o %T 2>/dev/null | head -n1 || true; }

healthy() {
  pid_of "$dir/munge/munged.pid" munged >/dev/null && pid_of "$dir/slurmctld.pid" slurmctld >/dev/null &&
    pid_of "$dir/slurmd.pid" slurmd >/dev/null || return 1
  case $(node_state) in idle|mixed|allocated|completing) return 0 ;; *) return 1 ;; esac
}

# Ends the daemon in FILE: SIGTERM, up to 15 s, then SIGKILL. (A daemon may remove its pid file
# as it begins to shut down: the pid is watched, not the file.)
end_daemon() {
  local file=$1 name=$2 pid
  pid=$(pid_of "$file" "$name") || { rm -f "$file"; return 0; }
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 1 30); do alive "$pid" "$name" || { rm -f "$file"; return 0; }; sleep 0.5; done
  echo "slurm: $name ($pid) did not stop in 15 s; killing it" >&2
  kill -KILL "$pid" 2>/dev/null || true
  for _ in $(seq 1 10); do alive "$pid" "$name" || break; sleep 0.5; done
  rm -f "$file"
}

stop_all() {
  # Jobs first: their slurmstepd processes would outlive slurmd.
  if pid_of "$dir/slurmctld.pid" slurmctld >/dev/null && [ -n "$(squeue -h -o %i 2>/dev/null)" ]; then
    scancel --quiet $(squeue -h -o %i 2>/dev/null) 2>/dev/null || true
    for _ in $(seq 1 60); do [ -z "$(squeue -h -o %i 2>/dev/null)" ] && break; sleep 0.5; done
  fi
  end_daemon "$dir/slurmd.pid" slurmd
  end_daemon "$dir/slurmctld.pid" slurmctld
  end_daemon "$dir/munge/munged.pid" munged
  # One of this folder's daemons without a pid file (never written, or removed as it began to stop),
  # known by this folder's paths on its command line.
  local name pid
  for name in slurmd slurmctld munged; do
    for pid in $(pgrep -x "$name" 2>/dev/null || true); do
      tr '\0' '\n' <"/proc/$pid/cmdline" 2>/dev/null | grep -qxF -e "$conf" -e "--socket=$socket" || continue
      echo "$pid" >"$dir/stray.pid"
      end_daemon "$dir/stray.pid" "$name"
    done
  done
  # Job steps slurmd started but did not get to end.
  local stray
  stray=$(pgrep -x slurmstepd 2>/dev/null | while read -r p; do
            grep -qz "^SLURM_CONF=$conf$" "/proc/$p/environ" 2>/dev/null && echo "$p"; done || true)
  [ -z "$stray" ] || kill -KILL $stray 2>/dev/null || true
}

logs_tail() {
  local log
  for log in "$dir/log/slurmctld.log" "$dir/log/slurmd.log" "$dir/munge/munged.log"; do
    [ -f "$log" ] || continue
    echo "--- last lines of $log" >&2
    tail -n 20 "$log" >&2
  done
}

fail_start() {
  trap - ERR
  echo "error: $*" >&2
  logs_tail
  stop_all
  exit 1
}

write_conf() {
  cat >"$conf.new" <<EOF
$MARKER
ClusterName=voicealarm
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=6917
SlurmdPort=6918
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SlurmUser=root
SlurmdUser=root
SlurmdSpoolDir=$dir/spool/slurmd
StateSaveLocation=$dir/spool/slurmctld
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ReturnToService=2
MpiDefault=none
MailProg=/bin/true
# Ended jobs stay visible to scontrol for an hour (there is no accounting to ask afterwards);
# a job whose dependency can never be met is cancelled rather than left pending.
MinJobAge=3600
DependencyParameters=kill_invalid_depend
NodeName=$node NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=debug Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
  mv "$conf.new" "$conf"
}

case $action in
  status)
    healthy && { echo "slurm: running from $dir, node $node $(node_state)"; exit 0; }
    echo "slurm: not running from $dir"; exit 1 ;;
  stop)
    stop_all
    echo "slurm: stopped (logs in $dir/log)"
    exit 0 ;;
esac

# start
if healthy; then
  echo "slurm: already running from $dir, node $node $(node_state); reusing it"
  echo "export SLURM_CONF=$conf"
  exit 0
fi
trap 'fail_start "starting failed at line $LINENO"' ERR
# Whatever is left of an earlier start (a daemon that died, a node that never came up) goes first.
stop_all
rm -rf "$dir/spool" "$dir/log" "$dir/munge/munged.log"
mkdir -p "$dir/spool/slurmd" "$dir/spool/slurmctld" "$dir/log" "$dir/munge" "$dir/key"
chmod 755 "$dir/munge"   # munged wants its socket's folder open to every user
chmod 700 "$dir/key"
if [ ! -s "$dir/key/munge.key" ]; then
  head -c 1024 /dev/urandom >"$dir/key/munge.key.new" && chmod 600 "$dir/key/munge.key.new" && mv "$dir/key/munge.key.new" "$dir/key/munge.key"
fi
write_conf

munged --socket="$socket" --key-file="$dir/key/munge.key" --pid-file="$dir/munge/munged.pid" \
  --log-file="$dir/munge/munged.log" --seed-file="$dir/key/munged.seed" 2>>"$dir/munge/munged.log" \
  || fail_start "munged did not start"
slurmctld -f "$conf" 2>>"$dir/log/slurmctld.log" || fail_start "slurmctld did not start"
slurmd -f "$conf" -N "$node" 2>>"$dir/log/slurmd.log" || fail_start "slurmd did not start"

deadline=$((SECONDS + START_TIMEOUT))
state=
while [ $SECONDS -lt $deadline ]; do
  state=$(node_state)
  [ "$state" = idle ] && break
  pid_of "$dir/slurmctld.pid" slurmctld >/dev/null || [ $SECONDS -lt 5 ] || fail_start "slurmctld exited"
  sleep 0.5
done
[ "$state" = idle ] || fail_start "node $node is not idle after ${START_TIMEOUT} s (sinfo: ${state:-no answer})"
healthy || fail_start "a daemon exited after the node came up"
echo "slurm: started from $dir, node $node idle ($(sinfo -V))"
echo "export SLURM_CONF=$conf"
