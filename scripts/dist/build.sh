#!/usr/bin/env bash
# Builds the release artifacts into dist/: the Debian package, a tarball for other Linux
# distributions, tarballs for macOS on Apple silicon and Intel with their Homebrew
# formula (fixthis.rb), the Windows executable and its NSIS installer, the Windows
# executable's THIRD_PARTY_NOTICES, and SHA256SUMS. Each package carries LICENSE
# (Apache-2.0): the .deb by reference in its copyright file, the tarball as a file, the
# installer as its licence page and as LICENSE.txt in the install folder.
# Called by `make dist`, which passes VERSION, GO_TAGS, GO_BUILD_FLAGS, LDFLAGS and
# DEB_MAINTAINER and has already built the console (frontend/dist) every binary embeds.
# RELEASE_URL is the folder the formula downloads the macOS tarballs from (the release
# workflow passes the release's download URL; by default this dist/ folder, so
# `brew install --formula dist/fixthis.rb` works on the Mac that holds it); HOMEPAGE is
# the formula's home page, left out when empty. DIST_ONLY picks parts (linux, darwin,
# windows; default all): the release workflow builds the Windows part on Windows.
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${VERSION:?}" "${GO_TAGS:?}" "${GO_BUILD_FLAGS:?}" "${LDFLAGS:?}" "${DEB_MAINTAINER:?}"
: "${RELEASE_URL:=file://$PWD/dist}" "${HOMEPAGE:=}" "${DIST_ONLY:=linux,darwin,windows}"
# want PART: whether DIST_ONLY names PART.
want() { [[ ,$DIST_ONLY, == *,$1,* ]]; }
[ -s frontend/dist/index.html ] || { echo "dist: frontend/dist is not built (run make frontend)" >&2; exit 1; }
[ -s LICENSE ] || { echo "dist: LICENSE is missing; every artifact carries it" >&2; exit 1; }

version=${VERSION#v}
# Debian versions sort "~" before anything, so a pre-release such as 0.1.0-dev+abc
# becomes 0.1.0~dev+abc (older than 0.1.0); git describe's "-N-gHASH" after a tag
# becomes "+N.gHASH" (newer than the tag), and "-dirty" "+dirty". A hyphen would mean
# a Debian revision.
deb_version=$(sed -E 's/-dirty$/+dirty/; s/-([0-9]+)-g([0-9a-f]+)/+\1.g\2/; s/-/~/g' <<<"$version")
work=build/dist
out=dist
rm -rf "$work" "$out"
mkdir -p "$work" "$out"

echo "dist: tools"
# GOEXE: the Windows job of the release workflow runs this under Git Bash.
disttool=$work/disttool$(go env GOEXE)
go build -C scripts/dist/disttool -o "$PWD/$disttool" .
wails_dir=$(go list -m -f '{{.Dir}}' github.com/wailsapp/wails/v2)

# THIRD_PARTY_NOTICES lists the npm packages bundled into the console; the source maps
# of a second, identical build say which those are (the embedded build has no maps,
# so they do not ship).
echo "dist: console source maps"
maps=$work/console-maps
# Hidden maps leave the code as the embedded build made it (no map comment, so the
# same chunk hashes and the same minified names): the maps describe the embedded
# console only if every script is byte for byte the one in frontend/dist, which a
# frontend/dist older than its sources is not.
(cd frontend && npx --no-install vite build --sourcemap hidden --outDir "$OLDPWD/$maps" --emptyOutDir --logLevel warn)
for f in frontend/dist/assets/*.js; do
  cmp -s "$f" "$maps/assets/${f##*/}" ||
    { echo "dist: frontend/dist differs from a fresh build of the console (run make frontend)" >&2; exit 1; }
done
# notices BINARY OUT: the licences of everything BINARY is built from.
notices() {
  "$disttool" notices -binary "$1" -sourcemaps "$maps" -vite frontend/node_modules/vite -out "$2"
}

# The tarballs' fixed times: the last commit's.
mtime=$(git log -1 --format=%cI 2>/dev/null || date -u -R)

## Linux ----------------------------------------------------------------------------
if want linux; then
# Two programs, as `make build` makes them: fixthis, without GTK and WebKitGTK so every
# command starts fast, and the window, fixthis-window, which fixthis runs for the
# desktop command. The .deb keeps the window in /usr/lib/fixthis (it is not a command
# of its own); the tarball keeps it beside fixthis.
echo "dist: linux binaries"
CGO_ENABLED=1 go build $GO_BUILD_FLAGS -tags "$GO_TAGS" -ldflags "$LDFLAGS" -o "$work/linux/fixthis-window" .
CGO_ENABLED=1 go build $GO_BUILD_FLAGS -ldflags "$LDFLAGS -X fixthis/cli.windowBinary=fixthis-window" -o "$work/linux/fixthis" .
# The window links every module fixthis does and its own (GTK, D-Bus): its notices
# cover both programs.
notices "$work/linux/fixthis-window" "$work/linux/THIRD_PARTY_NOTICES"

pkgroot=$work/deb/fixthis_${deb_version}_amd64
install -D -m 0755 "$work/linux/fixthis" "$pkgroot/usr/bin/fixthis"
install -D -m 0755 "$work/linux/fixthis-window" "$pkgroot/usr/lib/fixthis/fixthis-window"
install -D -m 0644 build/linux/fixthis.desktop "$pkgroot/usr/share/applications/fixthis.desktop"
"$disttool" icons -icon build/appicon.png -out "$pkgroot/usr/share/icons/hicolor"
install -d -m 0755 "$pkgroot/usr/share/man/man1" "$pkgroot/usr/share/doc/fixthis"
gzip -9n <build/linux/fixthis.1 >"$pkgroot/usr/share/man/man1/fixthis.1.gz"
# The notice's years run from the first to the last commit.
years=$(git log --format=%cd --date=format:%Y 2>/dev/null | sort -u | sed -n '1p;$p' | paste -sd- || true)
sed "s/@YEARS@/${years:-$(date -u +%Y)}/" build/linux/copyright >"$pkgroot/usr/share/doc/fixthis/copyright"
# Debian policy (12.3) wants documentation over 4 kB gzipped; copyright stays plain.
gzip -9n <"$work/linux/THIRD_PARTY_NOTICES" >"$pkgroot/usr/share/doc/fixthis/THIRD_PARTY_NOTICES.gz"
chmod 0644 "$pkgroot/usr/share/doc/fixthis/copyright" "$pkgroot/usr/share/doc/fixthis/THIRD_PARTY_NOTICES.gz"
{
  printf 'fixthis (%s) unstable; urgency=medium\n\n' "$deb_version"
  printf '  * Release %s, built from commit %s.\n\n' "$version" "$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
  printf ' -- %s  %s\n' "$DEB_MAINTAINER" "$(LC_ALL=C date -u -R)"
} | gzip -9n >"$pkgroot/usr/share/doc/fixthis/changelog.gz"
chmod 0644 "$pkgroot/usr/share/doc/fixthis/changelog.gz" "$pkgroot/usr/share/man/man1/fixthis.1.gz"
find "$pkgroot" -type d -exec chmod 0755 {} +

# dpkg-shlibdeps reads the shared libraries the binary links and names the packages
# that ship them, with minimum versions. It insists on a debian/control.
shlib=$work/shlibdeps
mkdir -p "$shlib/debian"
printf 'Source: fixthis\n\nPackage: fixthis\nArchitecture: amd64\n' >"$shlib/debian/control"
depends=$(cd "$shlib" && dpkg-shlibdeps -O "-e$OLDPWD/$pkgroot/usr/bin/fixthis" "-e$OLDPWD/$pkgroot/usr/lib/fixthis/fixthis-window" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
for lib in libgtk-3-0 libwebkit2gtk-4.1-0; do
  grep -q "$lib" <<<"$depends" || { echo "dist: dpkg-shlibdeps found no $lib in: $depends" >&2; exit 1; }
done

mkdir -p "$pkgroot/DEBIAN"
(cd "$pkgroot" && find usr -type f -print0 | sort -z | xargs -0 md5sum) >"$pkgroot/DEBIAN/md5sums"
cat >"$pkgroot/DEBIAN/control" <<CONTROL
Package: fixthis
Version: $deb_version
Architecture: amd64
Maintainer: $DEB_MAINTAINER
Installed-Size: $(du -sk --apparent-size "$pkgroot/usr" | cut -f1)
Depends: $depends
Recommends: adb
Section: devel
Priority: optional
Description: point at an Android app's UI and hand change requests to a coding agent
 FixThis mirrors the screen of a running Android debug app in a desktop
 window. Freeze a frame, click an element or drag an area, and write what
 should change; FixThis resolves the element through the UI tree and finds
 source candidates in the project.
 .
 The feedback goes to a coding agent (Claude Code, Codex, Cursor and others)
 as a compact prompt or through FixThis's MCP tools, and the console shows
 every claim, question and resolution as it happens. Without a phone a
 built-in simulated device lets you try everything.
CONTROL
chmod 0644 "$pkgroot/DEBIAN/control" "$pkgroot/DEBIAN/md5sums"
deb=$out/fixthis_${deb_version}_amd64.deb
dpkg-deb --root-owner-group -Zxz --build "$pkgroot" "$deb" >/dev/null

echo "dist: linux tarball"
name=fixthis-$version-linux-amd64
tardir=$work/tar/$name
install -D -m 0755 "$work/linux/fixthis" "$tardir/fixthis"
install -m 0755 "$work/linux/fixthis-window" "$tardir/fixthis-window"
install -m 0644 build/linux/fixthis.desktop README.md LICENSE build/linux/fixthis.1 "$work/linux/THIRD_PARTY_NOTICES" "$tardir/"
install -m 0644 "$pkgroot/usr/share/icons/hicolor/512x512/apps/fixthis.png" "$tardir/fixthis.png"
# Fixed owner, order and times make the tarball depend only on its contents.
tar -C "$work/tar" --owner=0 --group=0 --numeric-owner --sort=name --mtime="$mtime" -cf - "$name" |
  gzip -9n >"$out/$name.tar.gz"
fi # linux

## macOS ----------------------------------------------------------------------------
# The window links Cocoa and WebKit through cgo, which needs a Mac's SDK; these builds
# leave it out (CGO_ENABLED=0, no desktop tag): fixthis serves the console and opens it
# in the default browser, and every other command works as on Linux. The voice key
# goes to the login keychain through /usr/bin/security (go-keyring's macOS backend),
# which needs no cgo either. The release workflow builds the window on a Mac.
if want darwin; then
for arch in arm64 amd64; do
  echo "dist: darwin-$arch"
  name=fixthis-$version-darwin-$arch
  tardir=$work/tar/$name
  mkdir -p "$tardir"
  GOOS=darwin GOARCH=$arch CGO_ENABLED=0 go build $GO_BUILD_FLAGS -ldflags "$LDFLAGS" -o "$tardir/fixthis" .
  # Without cgo the binary links none of the window's modules: its own notices.
  notices "$tardir/fixthis" "$tardir/THIRD_PARTY_NOTICES"
  chmod 0644 "$tardir/THIRD_PARTY_NOTICES"
  install -m 0644 README.md LICENSE build/linux/fixthis.1 "$tardir/"
  tar -C "$work/tar" --owner=0 --group=0 --numeric-owner --sort=name --mtime="$mtime" -cf - "$name" |
    gzip -9n >"$out/$name.tar.gz"
done
"$disttool" formula -version "$version" -url "$RELEASE_URL" -homepage "$HOMEPAGE" \
  -arm64 "$out/fixthis-$version-darwin-arm64.tar.gz" -amd64 "$out/fixthis-$version-darwin-amd64.tar.gz" \
  -out "$out/fixthis.rb"
fi # darwin

## Windows --------------------------------------------------------------------------
if want windows; then
echo "dist: windows executable"
# The resource object must sit next to main.go to be linked; it is removed again so
# it never ends up in a commit or in other builds.
syso=fixthis_windows_amd64.syso
trap 'rm -f "$syso"' EXIT
"$disttool" resources -wails "$wails_dir" -project wails.json -version "$version" \
  -icon build/appicon.png -syso "$syso" -ico "$work/windows-icon.ico"
exe=$out/fixthis-$version-windows-amd64.exe
# Wails' Windows backend is pure Go (WebView2 through COM), so no cgo is needed;
# -H windowsgui makes it a GUI program that opens no console window.
GOOS=windows GOARCH=amd64 CGO_ENABLED=0 go build -trimpath -tags "${GO_TAGS/,webkit2_41/}" \
  -ldflags "$LDFLAGS -H windowsgui" -o "$exe" .
rm -f "$syso"
"$disttool" check-pe -version "$version" "$exe"
# The Windows build links other modules than the Linux one (no GTK/D-Bus, WebView2
# instead), so it gets its own notices, beside the bare .exe and in the installer.
notices "$exe" "$out/fixthis-$version-windows-amd64-THIRD_PARTY_NOTICES.txt"

echo "dist: windows installer"
"$disttool" installer -wails "$wails_dir" -project wails.json -version "$version" \
  -exe "$exe" -ico "$work/windows-icon.ico" -license LICENSE \
  -notices "$out/fixthis-$version-windows-amd64-THIRD_PARTY_NOTICES.txt" -out "$out/fixthis-$version-windows-amd64-setup.exe"
fi # windows

# Every file beside it; listed first, so the list never holds itself.
(cd "$out" && files=$(find . -maxdepth 1 -type f ! -name SHA256SUMS -printf '%f\n' | LC_ALL=C sort) &&
  xargs -d '\n' sha256sum -- <<<"$files" >SHA256SUMS)
echo "dist: done"
ls -l "$out"
