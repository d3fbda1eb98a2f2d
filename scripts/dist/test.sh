#!/usr/bin/env bash
# Checks the release artifacts `make dist` wrote: checksums, lintian, the launcher
# entry, the packaged binary (version, doctor, the desktop smoke test), the tarball,
# installing and removing the .deb with dpkg and apt, the macOS tarballs and their
# Homebrew formula, the Windows executables, and the LICENSE and THIRD_PARTY_NOTICES in
# every artifact.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-dist}
results=${OUT_DIR:-test-results}/dist
mkdir -p "$results"
tmp=$(mktemp -d)
export ANDROID_ADB_SERVER_PORT=$(( 20000 + RANDOM % 20000 ))
installed=0
cleanup() {
  adb -P "$ANDROID_ADB_SERVER_PORT" kill-server >/dev/null 2>&1 || true
  [ "$installed" = 1 ] && remove_deb >/dev/null 2>&1 || true
  rm -rf "$tmp"
}
trap cleanup EXIT
fail() { echo "test-dist: $*" >&2; exit 1; }
step() { echo "test-dist: $*"; }

shopt -s nullglob
debs=("$out"/fixthis_*_amd64.deb) tars=("$out"/fixthis-*-linux-amd64.tar.gz)
exes=("$out"/fixthis-*-windows-amd64.exe) setups=("$out"/fixthis-*-windows-amd64-setup.exe)
winnotices=("$out"/fixthis-*-windows-amd64-THIRD_PARTY_NOTICES.txt)
[ ${#debs[@]} = 1 ] && [ ${#tars[@]} = 1 ] && [ ${#exes[@]} = 1 ] && [ ${#setups[@]} = 1 ] && [ ${#winnotices[@]} = 1 ] ||
  fail "want exactly one .deb, tarball, exe, setup exe and Windows notices in $out; have: $(ls "$out")"
deb=${debs[0]} tarball=${tars[0]} exe=${exes[0]} setup=${setups[0]} winnotices=${winnotices[0]}
version=${tarball##*/fixthis-}
version=${version%-linux-amd64.tar.gz}

step "checksums"
(cd "$out" && sha256sum --quiet -c SHA256SUMS) || fail "SHA256SUMS does not match"
[ "$(wc -l <"$out/SHA256SUMS")" = 8 ] || fail "SHA256SUMS should list 8 files"

step "lintian"
# Errors fail the build; warnings and notes are printed for the log.
rc=0
lintian --fail-on error --tag-display-limit 0 "$deb" >"$results/lintian.txt" 2>&1 || rc=$?
grep -v '^running with root' "$results/lintian.txt" || true
[ "$rc" = 0 ] || fail "lintian reports errors (exit $rc)"

step "package metadata"
control=$(dpkg-deb -f "$deb")
for want in 'Package: fixthis' 'Recommends: adb' 'libgtk-3-0' 'libwebkit2gtk-4.1-0'; do
  grep -q -- "$want" <<<"$control" || fail "control file lacks '$want':\n$control"
done
contents=$(dpkg-deb -c "$deb")
for want in ./usr/bin/fixthis ./usr/lib/fixthis/fixthis-window ./usr/share/applications/fixthis.desktop ./usr/share/man/man1/fixthis.1.gz \
  ./usr/share/doc/fixthis/copyright ./usr/share/doc/fixthis/THIRD_PARTY_NOTICES.gz ./usr/share/icons/hicolor/48x48/apps/fixthis.png \
  ./usr/share/icons/hicolor/256x256/apps/fixthis.png ./usr/share/icons/hicolor/512x512/apps/fixthis.png; do
  grep -q " $want\$" <<<"$contents" || fail "the .deb lacks $want"
done

step "launcher entries"
dpkg-deb -x "$deb" "$tmp/deb"
desktop-file-validate "$tmp/deb/usr/share/applications/fixthis.desktop"
desktop-file-validate build/linux/fixthis.desktop

# check_binary BIN: version --json names this release, the linked Wails and Go, the
# commit and build date; doctor passes (no device is fine).
check_binary() {
  local bin=$1 json
  json=$("$bin" version --json)
  # The file names drop the tag's leading "v"; the binary reports the tag as it is.
  grep -qE '"version":"v?'"${version//+/\\+}"'"' <<<"$json" || fail "$bin version --json does not report $version: $json"
  for key in '"wailsVersion":"v2.' '"goVersion":"go' '"commit":"' '"buildDate":"'; do
    grep -qF "$key" <<<"$json" || fail "$bin version --json lacks $key: $json"
  done
  "$bin" doctor --project-dir "$tmp/project" >"$results/doctor.txt" 2>&1 || { cat "$results/doctor.txt" >&2; fail "$bin doctor failed"; }
  grep -q '^ok   adb server' "$results/doctor.txt" || fail "doctor did not reach the adb server: $(cat "$results/doctor.txt")"
}
mkdir -p "$tmp/project"

# check_notices FILE LABEL PRESENT ABSENT: FILE names the components every build
# carries, each with the text of its licence file as the module cache and
# node_modules hold it; it names PRESENT and not ABSENT, modules only one platform's
# binary links.
check_notices() {
  local file=$1 label=$2 present=$3 absent=$4 text path version dir licence
  text=$(<"$file")
  [[ $text == 'THIRD-PARTY SOFTWARE NOTICES for FixThis Desktop ('* ]] || fail "$label: no notices header"
  for path in github.com/wailsapp/wails/v2 github.com/mark3labs/mcp-go modernc.org/sqlite golang.org/x/sys; do
    read -r version dir < <(go list -m -f '{{.Version}} {{.Dir}}' "$path")
    grep -qxF "$path $version" <<<"$text" || fail "$label does not name $path $version"
    licence=$(tr -d '\r' <"$dir/LICENSE")
    [[ $text == *"$licence"* ]] || fail "$label lacks the LICENSE text of $path"
  done
  dir=frontend/node_modules/svelte
  version=$(node -p "require('./$dir/package.json').version")
  grep -qxF "svelte $version" <<<"$text" || fail "$label does not name svelte $version"
  licence=$(tr -d '\r' <"$dir/LICENSE.md")
  [[ $text == *"$licence"* ]] || fail "$label lacks svelte's LICENSE.md text"
  grep -q "^$present v" <<<"$text" || fail "$label does not name $present"
  ! grep -q "^$absent v" <<<"$text" || fail "$label names $absent, which that binary does not link"
}

step "notices"
gzip -dc "$tmp/deb/usr/share/doc/fixthis/THIRD_PARTY_NOTICES.gz" >"$tmp/notices-linux"
check_notices "$tmp/notices-linux" "the .deb's THIRD_PARTY_NOTICES" github.com/godbus/dbus/v5 github.com/wailsapp/go-webview2
check_notices "$winnotices" "$(basename "$winnotices")" github.com/wailsapp/go-webview2 github.com/godbus/dbus/v5
grep -q 'THIRD_PARTY_NOTICES' "$tmp/deb/usr/share/doc/fixthis/copyright" || fail "the copyright file does not point to THIRD_PARTY_NOTICES"

step "licence"
# The source tree's LICENSE is the Apache License 2.0; the .deb names it in its
# machine-readable (DEP-5) copyright file and points to Debian's copy of the text.
[ -s LICENSE ] || fail "there is no LICENSE in the source tree"
[ "$(sed -n '2p;3p' LICENSE | tr -s ' ' | sed 's/^ //')" = $'Apache License\nVersion 2.0, January 2004' ] ||
  fail "LICENSE is not the Apache License 2.0"
copyright=$(<"$tmp/deb/usr/share/doc/fixthis/copyright")
[[ $copyright == 'Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/'* ]] || fail "the copyright file is not DEP-5"
grep -qx 'License: Apache-2.0' <<<"$copyright" || fail "the copyright file does not say License: Apache-2.0"
grep -qF '/usr/share/common-licenses/Apache-2.0' <<<"$copyright" || fail "the copyright file does not point to /usr/share/common-licenses/Apache-2.0"

step "extracted package: version, doctor"
check_binary "$tmp/deb/usr/bin/fixthis"
# The command links no GTK or WebKit (that is the window's part), and says so clearly
# when its window is missing.
# (ldd's output is read whole: `ldd | grep -q` fails under pipefail when grep stops early.)
libs=$(ldd "$tmp/deb/usr/bin/fixthis")
if grep -qE 'libgtk|libwebkit' <<<"$libs"; then fail "/usr/bin/fixthis links GTK or WebKit"; fi
libs=$(ldd "$tmp/deb/usr/lib/fixthis/fixthis-window")
grep -q libwebkit2gtk-4.1 <<<"$libs" || fail "fixthis-window does not link WebKitGTK 4.1"
# Without its window, the desktop command says so, serves the console, names its URL
# and hands that URL to the browser opener (a stand-in xdg-open records it).
mkdir -p "$tmp/opener"
printf '#!/bin/sh\nprintf "%%s\\n" "$@" >"%s"\n' "$tmp/opener/opened" >"$tmp/opener/xdg-open"
chmod +x "$tmp/opener/xdg-open"
mv "$tmp/deb/usr/lib/fixthis/fixthis-window" "$tmp/window.moved"
PATH=$tmp/opener:$PATH DISPLAY=:0 "$tmp/deb/usr/bin/fixthis" --project-dir "$tmp/project" --no-demo >"$tmp/nowindow.txt" 2>&1 &
nowindow=$!
for _ in $(seq 300); do [ -s "$tmp/opener/opened" ] && break; sleep 0.1; done
kill "$nowindow" 2>/dev/null || true
wait "$nowindow" 2>/dev/null || true
mv "$tmp/window.moved" "$tmp/deb/usr/lib/fixthis/fixthis-window"
url=$(sed -n 's/^FixThis console: //p' "$tmp/nowindow.txt")
grep -q 'the window is not installed' "$tmp/nowindow.txt" && [[ $url == http://127.0.0.1:*/#token=* ]] ||
  fail "without its window, fixthis did not serve and name the console URL: $(cat "$tmp/nowindow.txt")"
[ "$(cat "$tmp/opener/opened" 2>/dev/null)" = "$url" ] || fail "without its window, fixthis did not open $url in the browser"
step "extracted package: desktop smoke test"
OUT_DIR=$results scripts/desktop-smoke.sh "$tmp/deb/usr/bin/fixthis"

step "tarball"
mkdir -p "$tmp/tar"
tar -C "$tmp/tar" -xzf "$tarball"
tardir=$tmp/tar/fixthis-$version-linux-amd64
for f in fixthis fixthis-window fixthis.desktop fixthis.png fixthis.1 README.md LICENSE THIRD_PARTY_NOTICES; do
  [ -f "$tardir/$f" ] || fail "the tarball lacks $f"
done
cmp -s "$tardir/fixthis" "$tmp/deb/usr/bin/fixthis" && cmp -s "$tardir/fixthis-window" "$tmp/deb/usr/lib/fixthis/fixthis-window" ||
  fail "the tarball and the .deb carry different binaries"
cmp -s "$tardir/THIRD_PARTY_NOTICES" "$tmp/notices-linux" || fail "the tarball and the .deb carry different THIRD_PARTY_NOTICES"
cmp -s "$tardir/LICENSE" LICENSE || fail "the tarball's LICENSE is not the source tree's"
desktop-file-validate "$tardir/fixthis.desktop"
tar_version=$("$tardir/fixthis" version)
grep -qE "^fixthis v?${version//+/\\+}\$" <<<"$tar_version" || fail "the tarball's binary does not report $version"
step "tarball: desktop smoke test"
OUT_DIR=$results/tarball scripts/desktop-smoke.sh "$tardir/fixthis"

step "macOS tarballs"
# Built without cgo (no window): Mach-O executables for Apple silicon and Intel that
# link go-keyring's macOS backend, which keeps the voice key through /usr/bin/security.
for arch in arm64:arm64 amd64:x86_64; do
  goarch=${arch%%:*} machine=${arch#*:}
  name=fixthis-$version-darwin-$goarch
  [ -f "$out/$name.tar.gz" ] || fail "$out lacks $name.tar.gz"
  mkdir -p "$tmp/darwin"
  tar -C "$tmp/darwin" -xzf "$out/$name.tar.gz"
  for f in fixthis fixthis.1 README.md LICENSE THIRD_PARTY_NOTICES; do
    [ -f "$tmp/darwin/$name/$f" ] || fail "$name.tar.gz lacks $f"
  done
  [[ $(file -b "$tmp/darwin/$name/fixthis") == "Mach-O 64-bit $machine executable"* ]] ||
    fail "$name/fixthis is not a Mach-O $machine executable: $(file -b "$tmp/darwin/$name/fixthis")"
  [ -x "$tmp/darwin/$name/fixthis" ] || fail "$name/fixthis is not executable"
  cmp -s "$tmp/darwin/$name/LICENSE" LICENSE || fail "$name's LICENSE is not the source tree's"
  grep -qaF /usr/bin/security "$tmp/darwin/$name/fixthis" || fail "$name/fixthis does not link the keychain through /usr/bin/security"
  darwin_notices=$(<"$tmp/darwin/$name/THIRD_PARTY_NOTICES")
  for path in github.com/mark3labs/mcp-go modernc.org/sqlite github.com/zalando/go-keyring; do
    grep -q "^$path v" <<<"$darwin_notices" || fail "$name's notices do not name $path"
  done
  ! grep -q "^github.com/godbus/dbus" <<<"$darwin_notices" || fail "$name's notices name D-Bus, which it does not link"
  # The formula downloads exactly this file, and its checksum is this file's.
  sum=$(sha256sum "$out/$name.tar.gz" | cut -d' ' -f1)
  grep -qF "/$name.tar.gz\"" "$out/fixthis.rb" || fail "fixthis.rb does not download $name.tar.gz"
  grep -A1 -F "/$name.tar.gz\"" "$out/fixthis.rb" | grep -qF "sha256 \"$sum\"" || fail "fixthis.rb's checksum for $name.tar.gz is not $sum"
done
step "Homebrew formula"
formula=$(<"$out/fixthis.rb")
for want in 'class Fixthis < Formula' "version \"$version\"" 'on_arm do' 'on_intel do' 'bin.install "fixthis"' \
  'brew install --cask android-platform-tools' 'shell_output("#{bin}/fixthis version")'; do
  grep -qF -- "$want" <<<"$formula" || fail "fixthis.rb lacks: $want"
done
if command -v ruby >/dev/null; then ruby -c "$out/fixthis.rb" >/dev/null || fail "fixthis.rb is not valid Ruby"; fi

step "Windows executables"
[[ $(file "$exe") == *'PE32+ executable (GUI) x86-64'* ]] || fail "$(file "$exe")"
disttool=build/dist/disttool
[ -x "$disttool" ] || go build -C scripts/dist/disttool -o "$PWD/$disttool" .
"$disttool" check-pe -version "$version" "$exe"
[[ $(file "$setup") == *'Nullsoft Installer'* ]] || fail "$(file "$setup")"
# 7-Zip reads NSIS installers: the notices must be among the installed files.
7z e -so "$setup" THIRD_PARTY_NOTICES.txt >"$tmp/notices-setup" 2>"$tmp/7z.log" || { cat "$tmp/7z.log" >&2; fail "7z cannot read $setup"; }
cmp -s "$tmp/notices-setup" "$winnotices" || fail "the installer does not install $(basename "$winnotices") as THIRD_PARTY_NOTICES.txt"
# The licence is installed too (with CRLF line ends), and shown as a page before the
# install folder is chosen.
7z e -so "$setup" LICENSE.txt 2>>"$tmp/7z.log" | tr -d '\r' >"$tmp/license-setup" || true
cmp -s "$tmp/license-setup" LICENSE || fail "the installer does not install LICENSE as LICENSE.txt"
"$disttool" check-license-page -license LICENSE "$setup"

step "install with dpkg -i and apt-get -f install"
sudo=()
if [ "$(id -u)" != 0 ]; then
  command -v sudo >/dev/null && sudo -n true 2>/dev/null || fail "installing the .deb needs root or password-less sudo"
  sudo=(sudo -n)
fi
if [[ $(dpkg-query -W -f='${Status}' fixthis 2>/dev/null) == 'install ok installed' ]]; then
  fail "a fixthis package is already installed; remove it first (this test installs and removes one)"
fi
# Other apt or dpkg runs on the machine hold the lock for a while: wait for them.
apt_opts=(-o DPkg::Lock::Timeout=300 -y -q)
dpkg_i() {
  local i
  for i in $(seq 60); do
    "${sudo[@]}" dpkg -i "$deb" >"$tmp/dpkg.log" 2>&1 && return 0
    grep -q 'lock' "$tmp/dpkg.log" || return 1 # dependency problems: apt-get -f fixes them
    sleep 5
  done
  return 1
}
remove_deb() { "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get "${apt_opts[@]}" remove fixthis; }
installed=1
dpkg_i || { cat "$tmp/dpkg.log"; step "dpkg -i left dependencies to apt-get -f install"; }
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get "${apt_opts[@]}" -f install >"$tmp/apt.log" 2>&1 ||
  { cat "$tmp/apt.log" >&2; fail "apt-get -f install failed"; }
[[ $(dpkg-query -W -f='${Status}' fixthis) == 'install ok installed' ]] || fail "fixthis is not installed after apt-get -f install"
[ "$(command -v fixthis)" = /usr/bin/fixthis ] || fail "fixthis is not on PATH as /usr/bin/fixthis"
check_binary /usr/bin/fixthis
step "remove"
remove_deb >"$tmp/apt.log" 2>&1 || { cat "$tmp/apt.log" >&2; fail "apt-get remove failed"; }
installed=0
[ ! -e /usr/bin/fixthis ] && [ ! -e /usr/lib/fixthis ] || fail "/usr/bin/fixthis or /usr/lib/fixthis is still there after removal"
[ ! -e /usr/share/applications/fixthis.desktop ] || fail "the launcher entry is still there after removal"

echo "test-dist: all package checks passed ($(basename "$deb"), $(du -h "$deb" | cut -f1))"
