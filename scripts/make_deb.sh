#!/usr/bin/env bash
# make deb: voicealarm_<version>_<arch>.deb from a release build, with Debian's own tools.
#   scripts/make_deb.sh check-tree             refuse a working tree with uncommitted changes
#                                               (unless ALLOW_DIRTY=1)
#   scripts/make_deb.sh build BINARY OUT_DIR   stage, compute, build into OUT_DIR
# The packaging sources are in deploy/debian (control, copyright, lintian overrides); the files
# come from the checkout: the binary (stripped), share/man/man1 (gzipped), share/completions,
# share/systemd/user, README.md. The version is the one the binary prints (Version.swift), the
# architecture dpkg's; Depends: is dpkg-shlibdeps' reading of the binary, the control file and
# Installed-Size are dpkg-gencontrol's, the archive dpkg-deb's (files owned by root, no fakeroot).
# Timestamps come from the last commit (SOURCE_DATE_EPOCH), so a commit builds the same package.
set -euo pipefail
umask 022
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
fail() { echo "error: make deb: $*" >&2; exit 1; }

check_tree() {
  [ "${ALLOW_DIRTY:-0}" = 1 ] && return 0
  git rev-parse --is-inside-work-tree >/dev/null 2>&1 ||
    fail "$root is not a git checkout, so a clean tree cannot be told; ALLOW_DIRTY=1 packages it as it is"
  local changed
  changed=$(git status --porcelain | wc -l)
  [ "$changed" = 0 ] ||
    fail "the working tree has uncommitted changes ($changed $([ "$changed" = 1 ] && echo file || echo files)); commit them, or ALLOW_DIRTY=1 packages them anyway"
}

case "${1:-}" in
  check-tree) check_tree; exit 0 ;;
  build) [ $# = 3 ] || fail "usage: scripts/make_deb.sh build BINARY OUT_DIR" ;;
  *) echo "usage: scripts/make_deb.sh check-tree | build BINARY OUT_DIR" >&2; exit 64 ;;
esac
check_tree
binary=$2 out=$(cd "$3" && pwd)
[ -x "$binary" ] || fail "$binary: no binary to package (swift build -c release --static-swift-stdlib first)"
version=$("$binary" --version | sed -n 's/^voicealarm //p')
[[ "$version" =~ ^[0-9][A-Za-z0-9.+~]*$ ]] || fail "$binary --version: '$version' is not a Debian version"
arch=$(dpkg --print-architecture)
deb="voicealarm_${version}_${arch}.deb"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct)}
  from="commit $(git rev-parse --short=12 HEAD)"
  [ -z "$(git status --porcelain)" ] || from="$from, with uncommitted changes"
else
  export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(date +%s)}
  from="a source tree outside git"
fi

# A source-like folder for the dpkg tools (they read debian/control and debian/changelog), the
# package's tree inside it as debian/voicealarm, as debhelper would lay it out.
work=.build/deb
rm -rf "$work"
mkdir -p "$work/debian"
pkg="$work/debian/voicealarm"
cp deploy/debian/control "$work/debian/control"
maintainer=$(sed -n 's/^Maintainer: //p' deploy/debian/control)
# A native package (upstream makes it): one changelog entry per version, written here from the
# one version there is, as /usr/share/doc/voicealarm/changelog.gz (policy 12.7).
cat > "$work/debian/changelog" <<CHANGELOG
voicealarm ($version) unstable; urgency=medium

  * Packaged from $from.

 -- $maintainer  $(date -u -R -d "@$SOURCE_DATE_EPOCH")
CHANGELOG

install -d "$pkg/DEBIAN"
install -D -m 0755 "$binary" "$pkg/usr/bin/voicealarm"
# As dh_strip does: symbols and comments out; the Swift metadata sections (allocated) stay.
strip --remove-section=.comment --remove-section=.note --strip-unneeded "$pkg/usr/bin/voicealarm"
for page in share/man/man1/*.1; do
  install -d "$pkg/usr/share/man/man1"
  gzip -9n < "$page" > "$pkg/usr/share/man/man1/$(basename "$page").gz"
done
install -D -m 0644 share/completions/voicealarm.bash "$pkg/usr/share/bash-completion/completions/voicealarm"
install -D -m 0644 share/completions/_voicealarm "$pkg/usr/share/zsh/vendor-completions/_voicealarm"
install -D -m 0644 share/completions/voicealarm.fish "$pkg/usr/share/fish/vendor_completions.d/voicealarm.fish"
for unit in share/systemd/user/*.service; do install -D -m 0644 "$unit" "$pkg/usr/lib/systemd/user/$(basename "$unit")"; done
doc="$pkg/usr/share/doc/voicealarm"
install -d "$doc"
install -m 0644 deploy/debian/copyright "$doc/copyright"
gzip -9n < README.md > "$doc/README.md.gz"
gzip -9n < "$work/debian/changelog" > "$doc/changelog.gz"
# The README's links (docs/…, SampleAudio/…) find their files beside it: the guide and its
# companions compressed (policy 12.3), the sample recordings as they are, among the examples.
install -d "$doc/docs" "$doc/examples"
for page in docs/*.md; do gzip -9n < "$page" > "$doc/docs/$(basename "$page").gz"; done
for sample in SampleAudio/*; do
  case "$sample" in *.sh) ;; *) install -m 0644 "$sample" "$doc/examples/$(basename "$sample")" ;; esac
done
# Waking from suspend needs cap_wake_alarm on the binary: given by the postinst (setcap), where
# the file system can hold it.
install -m 0755 deploy/debian/postinst "$pkg/DEBIAN/postinst"
if [ -f deploy/debian/voicealarm.lintian-overrides ]; then
  install -D -m 0644 deploy/debian/voicealarm.lintian-overrides "$pkg/usr/share/lintian/overrides/voicealarm"
fi
find "$doc" -type f -exec chmod 0644 {} +

# Depends: from the libraries the binary links, by the shlibs and symbols files of the packages
# that ship them; then the control file (Version, Architecture, Installed-Size filled in).
(cd "$work" && dpkg-shlibdeps -Tdebian/voicealarm.substvars debian/voicealarm/usr/bin/voicealarm)
# FFmpeg's libraries, libespeak-ng and libmosquitto are opened with dlopen on first use
# (Sources/CLazyLoad), by the sonames their module maps name, so dpkg-shlibdeps cannot see them:
# their packages and versions come from those packages' shlibs files, as dpkg-shlibdeps reads them.
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
ffmpeg_soname() { echo "lib$1.so.$(pkg-config --modversion "lib$1" | cut -d. -f1)"; }
opened=()
for soname in $(ffmpeg_soname avformat) $(ffmpeg_soname avcodec) $(ffmpeg_soname avfilter) $(ffmpeg_soname avutil) \
              $(ffmpeg_soname swresample) libespeak-ng.so.1 libmosquitto.so.1; do
  owner=$(dpkg-query -S "/usr/lib/$multiarch/$soname" | cut -d: -f1 | head -1)
  name=${soname%%.so.*} major=${soname##*.so.}
  dependency=$(dpkg-query --control-show "$owner" shlibs | awk -v name="$name" -v major="$major" '$1 == name && $2 == major { $1 = ""; $2 = ""; sub(/^ +/, ""); print; exit }')
  [ -n "$dependency" ] || fail "$soname: no shlibs entry in $owner"
  opened+=("$dependency")
done
(IFS=,; echo "voicealarm:Depends=${opened[*]}") | sed 's/,/, /g' >> "$work/debian/voicealarm.substvars"
(cd "$work" && dpkg-gencontrol -pvoicealarm -v"$version" -Tdebian/voicealarm.substvars -Pdebian/voicealarm -fdebian/files)
(cd "$pkg" && find . -type f ! -path './DEBIAN/*' -printf '%P\0' | LC_ALL=C sort -z | xargs -0 md5sum > DEBIAN/md5sums)
chmod 0644 "$pkg/DEBIAN/control" "$pkg/DEBIAN/md5sums"
find "$pkg" -newermt "@$SOURCE_DATE_EPOCH" -print0 | xargs -0 touch --no-dereference --date="@$SOURCE_DATE_EPOCH"

# An older package beside it would be picked up too by 'apt install ./voicealarm_*.deb'.
for old in "$out"/voicealarm_*_"$arch".deb; do
  if [ -e "$old" ] && [ "$old" != "$out/$deb" ]; then rm -f "$old"; echo "Removed the older $(basename "$old")."; fi
done
dpkg-deb --root-owner-group -Zxz --build "$pkg" "$out/$deb" >/dev/null
echo "Built $deb ($(du -k "$out/$deb" | cut -f1) KB; $(dpkg-deb -f "$out/$deb" Installed-Size) KB installed)."
dpkg-deb -f "$out/$deb" Depends Recommends
echo "Install it with: sudo apt install ./$deb"
