#!/usr/bin/env bash
# Builds FixThis.app on a Mac (the release workflow's macOS job): the window links
# Cocoa and WebKit through cgo, so it cannot be built anywhere else. One universal
# binary (Apple silicon and Intel joined with lipo) in a bundle whose Info.plist asks
# for the microphone (build/darwin/Info.plist), with the icon and the version.
# Signing and notarization are separate workflow steps that run only when their
# secrets exist; without them the bundle is signed ad hoc (Apple silicon runs nothing
# unsigned) and Gatekeeper asks the user to confirm the first start.
# Needs: Xcode command line tools, Go, frontend/dist built. Writes build/dist/macos/FixThis.app.
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${VERSION:?}"
[ "$(uname -s)" = Darwin ] || { echo "macos-app: FixThis.app builds on macOS only" >&2; exit 1; }
[ -s frontend/dist/index.html ] || { echo "macos-app: frontend/dist is not built (run make frontend)" >&2; exit 1; }
version=${VERSION#v}
# CFBundleShortVersionString takes MAJOR.MINOR.PATCH only.
short=$(sed -E 's/^([0-9]+\.[0-9]+\.[0-9]+).*/\1/' <<<"$version")
work=build/dist/macos
app=$work/FixThis.app
rm -rf "$work"
mkdir -p "$app/Contents/MacOS" "$app/Contents/Resources"

ldflags="-s -w -X main.version=$VERSION -X fixthis/cli.commit=$(git rev-parse HEAD) -X fixthis/cli.buildDate=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
# The oldest macOS the Go toolchain in go.mod runs on (12, Monterey; Wails alone would
# go back to 10.13), and the framework newer SDKs need for Wails' file dialogs.
min_macos=12.0
export CGO_ENABLED=1 CGO_CFLAGS="-mmacosx-version-min=$min_macos" CGO_LDFLAGS="-framework UniformTypeIdentifiers -mmacosx-version-min=$min_macos"
for arch in arm64 amd64; do
  clang_arch=$arch
  [ "$arch" = amd64 ] && clang_arch=x86_64
  echo "macos-app: window for $arch"
  GOOS=darwin GOARCH=$arch CC="clang -arch $clang_arch" \
    go build -trimpath -tags desktop,production -ldflags "$ldflags" -o "$work/fixthis-$arch" .
done
lipo -create -output "$app/Contents/MacOS/fixthis" "$work/fixthis-arm64" "$work/fixthis-amd64"
lipo "$app/Contents/MacOS/fixthis" -verify_arch arm64 x86_64

cp build/darwin/Info.plist "$app/Contents/Info.plist"
plutil -replace CFBundleShortVersionString -string "$short" "$app/Contents/Info.plist"
plutil -replace CFBundleVersion -string "$version" "$app/Contents/Info.plist"
plutil -replace CFBundleIconFile -string iconfile "$app/Contents/Info.plist"
plutil -replace LSMinimumSystemVersion -string "$min_macos" "$app/Contents/Info.plist"
plutil -lint "$app/Contents/Info.plist"
[ "$(plutil -extract NSMicrophoneUsageDescription raw "$app/Contents/Info.plist")" != "" ] ||
  { echo "macos-app: Info.plist does not ask for the microphone" >&2; exit 1; }

# The icon: every size an .icns holds, from the one 1024-or-smaller PNG.
iconset=$work/iconfile.iconset
mkdir -p "$iconset"
for size in 16 32 128 256 512; do
  sips -z "$size" "$size" build/appicon.png --out "$iconset/icon_${size}x${size}.png" >/dev/null
  sips -z $((size * 2)) $((size * 2)) build/appicon.png --out "$iconset/icon_${size}x${size}@2x.png" >/dev/null
done
iconutil -c icns -o "$app/Contents/Resources/iconfile.icns" "$iconset"
cp LICENSE "$app/Contents/Resources/LICENSE"
echo "macos-app: $app"
