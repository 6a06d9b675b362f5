#!/usr/bin/env bash
# make install / make uninstall: the binary, man pages and shell completions under PREFIX
# (inside DESTDIR for packagers). What was installed is listed in
# PREFIX/share/voicealarm/installed-files, and uninstall removes exactly that.
set -euo pipefail
action=$1 prefix=$2 destdir=${3:-} binary=${4:-}
root=$(cd "$(dirname "$0")/.." && pwd)
base="$destdir$prefix"
manifest="$base/share/voicealarm/installed-files"

fail() { echo "error: $*" >&2; exit 1; }

if [ "$action" = uninstall ]; then
  [ -f "$manifest" ] || fail "$base: VoiceAlarm is not installed here (no share/voicealarm/installed-files)"
  while IFS= read -r path; do
    rm -f "$destdir$path"
    # Folders the install made and that are now empty go too (never one with anything else in it).
    dir=$(dirname "$destdir$path")
    while [ "$dir" != "$base" ] && [ "${dir#"$base"}" != "$dir" ] && rmdir "$dir" 2>/dev/null; do dir=$(dirname "$dir"); done
  done < "$manifest"
  rm -f "$manifest"; rmdir "$base/share/voicealarm" "$base/share" "$base" 2>/dev/null || true
  echo "Removed VoiceAlarm from $base."
  exit 0
fi

[ -x "$binary" ] || fail "$binary: no binary to install (run 'swift build -c release' first)"
files=(
  "bin/voicealarm:$binary:0755"
  "share/bash-completion/completions/voicealarm:$root/share/completions/voicealarm.bash:0644"
  "share/zsh/site-functions/_voicealarm:$root/share/completions/_voicealarm:0644"
  "share/fish/vendor_completions.d/voicealarm.fish:$root/share/completions/voicealarm.fish:0644"
)
for page in "$root"/share/man/man1/*.1; do files+=("share/man/man1/$(basename "$page"):$page:0644"); done

# Every folder must be writable before anything is copied: nothing half-installed.
for entry in "${files[@]}" "share/voicealarm/installed-files::"; do
  dir="$base/$(dirname "${entry%%:*}")"
  mkdir -p "$dir" 2>/dev/null || fail "$dir: cannot be created (is $prefix read-only?)"
  [ -w "$dir" ] || fail "$dir: is not writable"
  probe="$dir/.voicealarm-install-probe.$$"
  (: > "$probe") 2>/dev/null || fail "$dir: cannot be written (a read-only file system?)"
  rm -f "$probe"
done
listed=()
for entry in "${files[@]}"; do
  IFS=: read -r target source mode <<<"$entry"
  install -m "$mode" "$source" "$base/$target.partial.$$"
  mv -f "$base/$target.partial.$$" "$base/$target"
  listed+=("$prefix/$target")
done
printf '%s\n' "${listed[@]}" > "$manifest.partial.$$" && mv -f "$manifest.partial.$$" "$manifest"
echo "Installed VoiceAlarm $("$base/bin/voicealarm" --version | cut -d' ' -f2) into $base: the binary, ${#listed[@]} files in all (listed in $manifest)."
case ":$PATH:" in *":$prefix/bin:"*) ;; *) echo "note: $prefix/bin is not on your PATH" >&2 ;; esac
# Waking a suspended machine needs CAP_WAKE_ALARM (root has it): say the one line that grants it.
if [ "$(id -u)" != 0 ] && ! { command -v getcap >/dev/null && getcap "$base/bin/voicealarm" | grep -q cap_wake_alarm; }; then
  echo "note: for alarms to wake a suspended machine: sudo setcap cap_wake_alarm+ep $prefix/bin/voicealarm" >&2
fi
