#!/usr/bin/env bash
# make test-deb: the Debian package as a person meets it, on a throwaway copy of this machine.
#   scripts/test_deb.sh DEB        (as root; make test-deb runs it through sudo)
#
# The machine itself is left as it was: everything runs in a private mount namespace, chrooted
# into an overlay of / whose changes go to a tmpfs that disappears with the namespace (what
# piuparts does with a chroot made by debootstrap, which needs a network these machines lack).
# So a VoiceAlarm package already installed here, other people's tests running beside this one
# and the accounts of the machine see nothing of it. In there, with the real dpkg:
#   lintian; dpkg -i; the package's files where they belong (dpkg --verify for the md5sums);
#   then as an ordinary user made with useradd: voicealarm --version, man -w voicealarm, bash
#   completion of 'voicealarm al<TAB>' typed into an interactive bash in tmux (zsh and fish
#   find theirs too), the README's first voice alarm (a SampleAudio clip copied into the home,
#   a playlist, an alarm, 'scheduler list' showing its voice ringtone, and a ring played through
#   ALSA's file plugin), 'service install' choosing the package's unit, systemd-analyze verify of
#   the package's user units; ldd of the binary against what Depends pulls in; then dpkg -r and
#   dpkg -P leave none of the package's files (dpkg -L before, the file system after) and the
#   user's data dir as it was.
# Each check prints PASS or FAIL with what it saw; the exit status is 1 when one failed.
set -uo pipefail
self=$(readlink -f "$0")
user=va-deb-test

case "${1:-}" in
--namespace) ;;   # below: the namespace, mounting the chroot
--inside) ;;      # below: in the chroot, the checks
*)
  deb=$(readlink -f "${1:?usage: scripts/test_deb.sh DEB}")
  [ -f "$deb" ] || { echo "error: test-deb: $1: no such package" >&2; exit 64; }
  [ "$(id -u)" = 0 ] || { echo "error: test-deb: needs root (a mount namespace and a chroot); run it through sudo" >&2; exit 1; }
  base=$(mktemp -d "${TMPDIR:-/tmp}/voicealarm-test-deb.XXXXXX")
  unshare --mount --propagation private -- "$self" --namespace "$deb" "$base"
  status=$?
  rmdir "$base" 2>/dev/null || true
  exit $status
  ;;
esac

if [ "$1" = --namespace ]; then
  deb=$2 base=$3 root=$3/root
  set -e
  mount -t tmpfs -o mode=0755 voicealarm-test-deb "$base"
  mkdir -p "$base/upper" "$base/work" "$root"
  mount -t overlay overlay -o "lowerdir=/,upperdir=$base/upper,workdir=$base/work" "$root" ||
    { echo "error: test-deb: cannot mount an overlay of / (a kernel without overlayfs, or not allowed here)" >&2; exit 1; }
  mount -t proc proc "$root/proc"
  mount --rbind /dev "$root/dev"
  mount --rbind /sys "$root/sys"
  mount -t tmpfs -o mode=1777 tmpfs "$root/tmp"
  mount -t tmpfs -o mode=0755 tmpfs "$root/run"
  install -m 0644 "$deb" "$root/tmp/"
  install -m 0644 "$(dirname "$self")/../SampleAudio/calm.wav" "$root/tmp/calm.wav"
  install -m 0755 "$self" "$root/tmp/test_deb.sh"
  set +e
  chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 HOME=/root \
    /bin/bash /tmp/test_deb.sh --inside "/tmp/$(basename "$deb")"
  exit $?   # the namespace, and every mount in it, ends here
fi

# --- In the chroot ---------------------------------------------------------------------------
deb=$2
home=/home/$user
passed=0 failed=0 started=$SECONDS

# check NAME FUNCTION: runs it, prints PASS or FAIL and, indented, what it said.
check() {
  local name=$1 output status
  output=$("$2" 2>&1); status=$?
  if [ $status = 0 ]; then echo "PASS  $name"; passed=$((passed + 1)); else echo "FAIL  $name"; failed=$((failed + 1)); fi
  [ -z "$output" ] || printf '%s\n' "$output" | sed 's/^/      /'
}

# as_user COMMAND...: the test user's command, with a login's plain environment.
as_user() {
  runuser -u "$user" -- env -i HOME="$home" USER="$user" LOGNAME="$user" SHELL=/bin/bash \
    PATH=/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8 "$@"
}

version=$(dpkg-deb -f "$deb" Version)
echo "Package: $(basename "$deb"), $(du -k "$deb" | cut -f1) KB, $(dpkg-deb -f "$deb" Installed-Size) KB installed"
echo "Depends: $(dpkg-deb -f "$deb" Depends)"
echo "Recommends: $(dpkg-deb -f "$deb" Recommends)"
useradd --create-home --shell /bin/bash "$user"

lintian_clean() {
  as_user lintian --fail-on error,warning --display-info "$deb" || return 1
  echo "(lintian $(lintian --version | cut -d' ' -f2): nothing at error or warning level)"
}

installs() {
  dpkg -i "$deb" | grep -v '^(Reading database' || return 1
  local state
  state=$(dpkg-query -W -f '${Status} ${Version}' voicealarm)
  echo "dpkg-query: $state"
  [ "$state" = "install ok installed $version" ]
}

laid_out() {
  local files missing=0 path
  files=$(dpkg -L voicealarm)
  for path in /usr/bin/voicealarm /usr/share/man/man1/voicealarm.1.gz /usr/share/man/man1/voicealarm-alarm.1.gz \
              /usr/share/bash-completion/completions/voicealarm /usr/share/zsh/vendor-completions/_voicealarm \
              /usr/share/fish/vendor_completions.d/voicealarm.fish \
              /usr/lib/systemd/user/voicealarm-daemon.service /usr/lib/systemd/user/voicealarm-web.service /usr/lib/systemd/user/voicealarm-mqtt.service \
              /usr/share/doc/voicealarm/README.md.gz /usr/share/doc/voicealarm/copyright /usr/share/doc/voicealarm/changelog.gz; do
    grep -qx "$path" <<<"$files" || { echo "missing: $path"; missing=1; }
  done
  local outside
  outside=$(grep -v -e '^/usr/' -e '^/usr$' -e '^/\.$' <<<"$files")
  [ -z "$outside" ] || { echo "outside /usr: $outside"; missing=1; }
  echo "$(grep -c '\.1\.gz$' <<<"$files") man pages, $(wc -l <<<"$files") paths in dpkg -L"
  local verify
  verify=$(dpkg --verify voicealarm) || { echo "dpkg --verify: $verify"; missing=1; }
  [ -z "$verify" ] && echo "dpkg --verify: every file matches its md5sum"
  return $missing
}

# The postinst gave the binary cap_wake_alarm (getcap, and the daemon's wake-up timer as the
# ordinary user: doctor says nothing about waking); the README's companions are beside it.
wakes_and_documents() {
  local caps
  caps=$(getcap /usr/bin/voicealarm)
  echo "getcap: $caps"
  grep -q "cap_wake_alarm=ep" <<<"$caps" || return 1
  local doc=/usr/share/doc/voicealarm
  for path in "$doc/docs/guide.md.gz" "$doc/docs/api.md.gz" "$doc/examples/calm.wav" "$doc/examples/manifesto.flac"; do
    [ -f "$path" ] || { echo "missing: $path"; return 1; }
  done
  echo "$(ls "$doc/examples" | wc -l) sample recordings, $(ls "$doc/docs" | wc -l) pages of the guide"
  dpkg-deb -f "$deb" Recommends | grep -q "bash-completion" || { echo "bash-completion is not recommended"; return 1; }
  echo "Recommends: bash-completion"
}

version_prints() {
  local printed
  printed=$(as_user voicealarm --version) || return 1
  echo "$printed"
  [ "$printed" = "voicealarm $version" ]
}

man_finds() {
  local found
  found=$(as_user man -w voicealarm) || return 1
  echo "man -w voicealarm: $found"
  [ "$found" = /usr/share/man/man1/voicealarm.1.gz ] || return 1
  echo "man -w voicealarm-service: $(as_user man -w voicealarm-service)"
}

# 'voicealarm al' and a real Tab, typed into an interactive bash (the user's ~/.bashrc from
# /etc/skel loads bash-completion, which loads ours on the first Tab).
bash_completes() {
  local socket=/tmp/va-tmux-$$ line="" i
  as_user tmux -S "$socket" -f /dev/null new-session -d -x 100 -y 10 "bash -i" || return 1
  for i in $(seq 50); do as_user tmux -S "$socket" capture-pane -p | grep -q '\$ *$' && break; sleep 0.1; done
  as_user tmux -S "$socket" send-keys "voicealarm al" Tab
  for i in $(seq 50); do
    line=$(as_user tmux -S "$socket" capture-pane -p | grep 'voicealarm al' | tail -1)
    [[ "$line" =~ voicealarm\ alarm\ *$ ]] && break
    sleep 0.1
  done
  as_user tmux -S "$socket" kill-server
  echo "after 'voicealarm al<TAB>': ${line#*\$ }"
  [[ "$line" =~ voicealarm\ alarm\ *$ ]]
}

zsh_and_fish_complete() {
  local zsh fish
  zsh=$(as_user zsh -fc 'autoload -Uz compinit && compinit -u -d /tmp/va-zcompdump-$$ && print -r -- $_comps[voicealarm]')
  echo "zsh: voicealarm is completed by '$zsh'"
  fish=$(as_user fish -c 'complete -C "voicealarm al"' | cut -f1 | xargs)
  echo "fish: 'voicealarm al' offers '$fish'"
  [ "$zsh" = _voicealarm ] && [ "$fish" = alarm ]
}

# The README's first voice alarm, from a clip in the user's home, then a ring into a file.
first_alarm() {
  as_user bash -c '
    set -euo pipefail
    cd
    cp /tmp/calm.wav calm.wav
    clip=$(voicealarm clip import calm.wav --title "I am calm")
    voicealarm playlist create morning "$clip" >/dev/null
    alarm=$(voicealarm alarm add morning --at 06:45 --days weekdays)
    echo "clip $clip, alarm $alarm"
    voicealarm scheduler list
    sound=$(voicealarm scheduler list --json | python3 -c "import json,sys; print([a[\"sound\"] for a in json.load(sys.stdin) if a[\"id\"] == \"$alarm\"][0])")
    [ "$sound" = "$alarm.m4a" ] || { echo "scheduler list: the alarm rings $sound, not its voice ringtone"; exit 1; }
    printf "%s\n" "pcm.nullsink { type null }" "pcm.!default { type file slave.pcm \"nullsink\" file \"$HOME/played.wav\" format \"wav\" }" > asound.conf
    ALSA_CONFIG_PATH=$HOME/asound.conf voicealarm ring "$alarm" --max-seconds 4 >/dev/null 2>ring.log || { cat ring.log; exit 1; }
    echo "rang: $(voicealarm check played.wav)"
  '
}

service_prefers_package() {
  local path written status
  # No user manager runs in the chroot: install chooses the package's unit, says how to start it
  # and exits 1 (nothing would start the daemon here), as it does on any machine without one.
  path=$(as_user voicealarm service install 2>/tmp/va-service-install.log); status=$?
  sed 's/^/stderr: /' /tmp/va-service-install.log
  echo "exit: $status"
  [ $status = 0 ] || { [ $status = 1 ] && grep -q "no systemd user manager runs" /tmp/va-service-install.log; } || return 1
  echo "stdout: $path"
  written=$(ls "$home/.config/systemd/user" 2>/dev/null)
  [ "$path" = /usr/lib/systemd/user/voicealarm-daemon.service ] && [ -z "$written" ] || { echo "written: $written"; return 1; }
}

units_verify() {
  as_user env XDG_RUNTIME_DIR=/tmp systemd-analyze --user verify \
    /usr/lib/systemd/user/voicealarm-daemon.service /usr/lib/systemd/user/voicealarm-web.service /usr/lib/systemd/user/voicealarm-mqtt.service || return 1
  echo "systemd-analyze --user verify: the three units, their man pages found"
}

# Every library the binary loads comes from a package Depends pulls in; every library it links
# by name (NEEDED) from a package Depends names itself.
libraries_from_depends() {
  local direct closure=() queue=() seen=" " package field group alternative provider status=0
  direct=$(dpkg-query -W -f '${Depends}' voicealarm | tr ',' '\n' | sed 's/([^)]*)//g; s/:any//g; s/ //g')
  queue=($(tr '|' '\n' <<<"$direct"))
  while [ ${#queue[@]} -gt 0 ]; do
    package=${queue[0]}; queue=("${queue[@]:1}")
    case "$seen" in *" $package "*) continue ;; esac
    seen="$seen$package "
    if ! dpkg-query -W -f '${Status}' "$package" 2>/dev/null | grep -q 'ok installed'; then
      # A virtual package or an alternative not installed: its installed providers, if any.
      for provider in $(dpkg-query -W -f '${Package} ${Provides}\n' | awk -v p="$package" '{ for (i = 2; i <= NF; i++) { gsub(/[,(].*/, "", $i); if ($i == p) print $1 } }'); do
        queue+=("$provider")
      done
      continue
    fi
    closure+=("$package")
    for field in $(dpkg-query -W -f '${Pre-Depends},${Depends}' "$package" | tr ',' '\n' | sed 's/([^)]*)//g; s/:any//g; s/ //g'); do
      for alternative in $(tr '|' '\n' <<<"$field"); do queue+=("$alternative"); done
    done
  done
  local allowed
  allowed=$(for package in "${closure[@]}"; do dpkg -L "$package"; done | xargs -d '\n' realpath -q -e 2>/dev/null | sort -u)
  local loaded=0 library path real owner
  while read -r library _ path _; do
    [ -n "$path" ] && [ "${path:0:1}" = / ] || continue
    loaded=$((loaded + 1))
    real=$(realpath -e "$path")
    grep -qxF "$real" <<<"$allowed" || { echo "outside Depends: $library => $path"; status=1; }
  done < <(ldd /usr/bin/voicealarm | sed 's/^[[:space:]]*//' | awk '$2 == "=>" { print $1, $2, $3, $4; next } $1 ~ /^\// { print $1, "=>", $1, "" }')
  local named=" $(tr '|\n' '  ' <<<"$direct") " needed
  for needed in $(objdump -p /usr/bin/voicealarm | awk '$1 == "NEEDED" { print $2 }'); do
    path=$(ldd /usr/bin/voicealarm | awk -v l="$needed" '$1 == l && $2 == "=>" { print $3 } $1 ~ "/" l "$" { print $1 }' | head -1)
    owner=$(dpkg-query -S "$(realpath -e "$path")" 2>/dev/null | cut -d: -f1 | head -1)
    [ -n "$owner" ] || owner=$(dpkg-query -S "$path" 2>/dev/null | cut -d: -f1 | head -1)
    case "$named" in
      *" $owner "*) echo "NEEDED $needed: $path, from $owner (in Depends)" ;;
      *) echo "NEEDED $needed: $path, from '$owner', which Depends does not name"; status=1 ;;
    esac
  done
  echo "ldd: $loaded libraries, each a file of one of the ${#closure[@]} installed packages Depends pulls in"
  # FFmpeg's libraries and eSpeak NG are opened on first use (dlopen), so ldd does not list them:
  # every library a check of a recording and a spoken stand-in start (LD_DEBUG's "calling init"),
  # on a copy of the binary without its file capability (which would make the loader ignore LD_DEBUG).
  local copy data opened=0 ffmpeg=0 espeak=0
  copy=$(mktemp /tmp/voicealarm-nocap.XXXXXX) data=$(mktemp -d /tmp/voicealarm-data.XXXXXX)
  install -m 0755 /usr/bin/voicealarm "$copy"  # mktemp made it 0600
  while read -r path; do
    opened=$((opened + 1))
    case "$path" in
      */libavformat.so.* | */libavcodec.so.* | */libavfilter.so.* | */libavutil.so.* | */libswresample.so.*) ffmpeg=$((ffmpeg + 1)) ;;
      */libespeak-ng.so.*) espeak=$((espeak + 1)) ;;
    esac
    grep -qxF "$(realpath -e "$path")" <<<"$allowed" || { echo "opened outside Depends: $path"; status=1; }
  done < <({
    LD_DEBUG=libs "$copy" check /usr/share/doc/voicealarm/examples/calm.wav 2>&1 >/dev/null
    LD_DEBUG=libs "$copy" --data-dir "$data" clip say "Good morning" 2>&1 >/dev/null
  } | sed -n 's/.*calling init: //p' | grep '^/' | sort -u)
  rm -rf "$copy" "$data"
  [ "$ffmpeg" = 5 ] && [ "$espeak" = 1 ] || { echo "opened $ffmpeg of FFmpeg's five libraries and $espeak eSpeak NG"; status=1; }
  echo "a check and a spoken stand-in start $opened libraries, FFmpeg's five and eSpeak NG opened on first use among them, each from Depends"
  return $status
}

# The user's library as it stands: every path, size, mode and content.
data_dir_snapshot() {
  (cd "$home/.local/share/voicealarm" && find . -printf '%p %s %m %T@\n' | sort && find . -type f -print0 | sort -z | xargs -0 md5sum)
}

removed_cleanly() {
  local stage=$1 path status=0 owner
  while read -r path; do
    [ "$path" = /. ] && continue
    [ -e "$path" ] || [ -L "$path" ] || continue
    if [ -d "$path" ] && [ ! -L "$path" ]; then
      owner=$(dpkg-query -S "$path" 2>/dev/null | cut -d: -f1)
      [ -n "$owner" ] || { echo "after $stage: $path is left behind, and no package owns it"; status=1; }
    else
      echo "after $stage: $path is left behind"; status=1
    fi
  done < /tmp/va-listed
  ! command -v voicealarm >/dev/null || { echo "after $stage: voicealarm is still on PATH"; status=1; }
  [ "$(data_dir_snapshot)" = "$(cat /tmp/va-data-before)" ] || { echo "after $stage: the user's data dir changed"; status=1; }
  [ $status != 0 ] || echo "none of the $(wc -l < /tmp/va-listed) paths dpkg -L listed is left but folders other packages own; the data dir is as it was ($(grep -c ' ' /tmp/va-data-before) lines of listing and sums)"
  return $status
}

dpkg_r() {
  dpkg -L voicealarm > /tmp/va-listed && data_dir_snapshot > /tmp/va-data-before || return 1
  grep -q 'voicealarm.sqlite' /tmp/va-data-before || { echo "no library in $home/.local/share/voicealarm to watch"; return 1; }
  dpkg -r voicealarm | grep -v '^(Reading database' || return 1
  removed_cleanly "dpkg -r"
}

dpkg_p() {
  dpkg -P voicealarm 2>&1 | grep -v '^(Reading database' || return 1
  local state
  state=$(dpkg-query -W -f '${Status}' voicealarm 2>/dev/null || echo "unknown to dpkg")
  echo "dpkg-query: $state"
  ls /var/lib/dpkg/info/voicealarm.* 2>/dev/null && { echo "dpkg's records of the package are left"; return 1; }
  case "$state" in *not-installed*|"unknown to dpkg") ;; *) return 1 ;; esac
  removed_cleanly "dpkg -P"
}

check "lintian --fail-on error,warning" lintian_clean
check "dpkg -i" installs
if [ "$failed" = 0 ]; then
  check "files where Debian wants them, md5sums right" laid_out
  check "cap_wake_alarm from the postinst; guide and samples in /usr/share/doc" wakes_and_documents
  check "voicealarm --version (as $user)" version_prints
  check "man -w voicealarm" man_finds
  check "bash completes 'voicealarm al<TAB>'" bash_completes
  check "zsh and fish find their completions" zsh_and_fish_complete
  check "a first voice alarm rings" first_alarm
  check "service install enables the package's unit" service_prefers_package
  check "systemd-analyze verify of the user units" units_verify
  check "ldd names only libraries from Depends" libraries_from_depends
  check "dpkg -r leaves nothing of the package, nor touches the data dir" dpkg_r
  check "dpkg -P leaves nothing of the package, nor touches the data dir" dpkg_p
fi
echo "$passed passed, $failed failed, in $((SECONDS - started)) s."
[ "$failed" = 0 ]
