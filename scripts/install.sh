#!/usr/bin/env bash
# make install / make uninstall: the binary, man pages and shell completions under PREFIX
# (inside DESTDIR for packagers). What was installed is listed in
# PREFIX/share/voicealarm/installed-files (and the folders the install itself made in
# installed-folders), and uninstall removes exactly those.
set -euo pipefail
action=$1 prefix=$2 destdir=${3:-} binary=${4:-}
root=$(cd "$(dirname "$0")/.." && pwd)
case "$prefix" in /*) ;; *) echo "error: PREFIX=$prefix: must be an absolute path" >&2; exit 64 ;; esac
base="$destdir$prefix"
manifest="$base/share/voicealarm/installed-files"
folders="$base/share/voicealarm/installed-folders"

fail() { echo "error: $*" >&2; exit 1; }

if [ "$action" = uninstall ]; then
  [ -f "$manifest" ] || fail "$base: VoiceAlarm is not installed here (no share/voicealarm/installed-files)"
  while IFS= read -r path; do rm -f "$destdir$path"; done < "$manifest"
  rm -f "$manifest"
  # Only folders the install made, deepest first, and only when nothing else is in them.
  made=$(sort -r "$folders" 2>/dev/null || true)
  rm -f "$folders"
  rmdir "$base/share/voicealarm" 2>/dev/null || true
  while IFS= read -r dir; do [ -z "$dir" ] || rmdir "$destdir$dir" 2>/dev/null || true; done <<< "$made"
  echo "Removed VoiceAlarm from $base."
  echo "note: alarms whose systemd units or daemon service ran this binary need another one: 'make install' again, or 'voicealarm reconcile' from the one you keep" >&2
  exit 0
fi

[ -x "$binary" ] || fail "$binary: no binary to install (run 'swift build -c release' first)"
# Target, source and mode, separated by tabs (a checkout's path may hold ':').
tab=$'\t'
files=(
  "bin/voicealarm${tab}$binary${tab}0755"
  "share/bash-completion/completions/voicealarm${tab}$root/share/completions/voicealarm.bash${tab}0644"
  "share/zsh/site-functions/_voicealarm${tab}$root/share/completions/_voicealarm${tab}0644"
  "share/fish/vendor_completions.d/voicealarm.fish${tab}$root/share/completions/voicealarm.fish${tab}0644"
)
for page in "$root"/share/man/man1/*.1; do files+=("share/man/man1/$(basename "$page")${tab}$page${tab}0644"); done

# Every folder must be writable before anything is copied: nothing half-installed. The folders
# this install makes are remembered, so uninstall removes those and no others.
made=()
for entry in "${files[@]}" "share/voicealarm/installed-files${tab}${tab}"; do
  dir="$base/$(dirname "${entry%%"$tab"*}")"
  missing="$dir"; new=()
  while [ ! -e "$missing" ] && [ "${missing#"$base"}" != "$missing" ]; do new+=("${missing#"$destdir"}"); missing=$(dirname "$missing"); done
  mkdir -p "$dir" 2>/dev/null || fail "$dir: cannot be created (is $prefix read-only?)"
  [ -w "$dir" ] || fail "$dir: is not writable"
  probe="$dir/.voicealarm-install-probe.$$"
  (: > "$probe") 2>/dev/null || fail "$dir: cannot be written (a read-only file system?)"
  rm -f "$probe"
  made+=("${new[@]+"${new[@]}"}")
done
listed=()
for entry in "${files[@]}"; do
  IFS=$tab read -r target source mode <<<"$entry"
  install -m "$mode" "$source" "$base/$target.partial.$$"
  mv -f "$base/$target.partial.$$" "$base/$target"
  listed+=("$prefix/$target")
done
if [ -f "$folders" ]; then made+=($(cat "$folders")); fi
printf '%s\n' "${made[@]+"${made[@]}"}" | sort -u | grep -v '^$' > "$folders.partial.$$" || true
mv -f "$folders.partial.$$" "$folders"
printf '%s\n' "${listed[@]}" > "$manifest.partial.$$" && mv -f "$manifest.partial.$$" "$manifest"
echo "Installed VoiceAlarm $("$base/bin/voicealarm" --version | cut -d' ' -f2) into $base: the binary, ${#listed[@]} files in all (listed in $manifest)."
case ":$PATH:" in *":$prefix/bin:"*) ;; *) echo "note: $prefix/bin is not on your PATH" >&2 ;; esac
# Waking a suspended machine needs CAP_WAKE_ALARM (root has it): say the one line that grants it.
if [ "$(id -u)" != 0 ] && ! { command -v getcap >/dev/null && getcap "$base/bin/voicealarm" | grep -q cap_wake_alarm; }; then
  echo "note: for alarms to wake a suspended machine: sudo setcap cap_wake_alarm+ep $prefix/bin/voicealarm" >&2
fi
