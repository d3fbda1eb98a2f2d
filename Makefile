# FixThis Desktop. `make run` and `make test` do all set-up on a fresh Debian/Ubuntu
# machine: system packages (apt, only when missing), npm packages (npm ci), the build.

SHELL := /bin/bash
.DEFAULT_GOAL := help

BIN        := build/bin/fixthis
# On Linux the window (GTK + WebKitGTK) is a second program, fixthis-window, that
# `fixthis` runs for the desktop command only: linked into every command, those
# libraries cost each CLI call ~70 ms of dynamic loading. macOS links one binary.
WINDOW_BIN := build/bin/fixthis-window
# The fake OpenAI Realtime server the voice tests and `make bench` talk to.
FAKE_BIN   := build/bin/realtime-fake
# Expanded once, when make starts: the file names and the version linked into the
# binaries then agree even if a commit lands while make dist runs.
ifeq ($(origin VERSION),undefined)
VERSION    := $(shell git describe --tags --dirty 2>/dev/null || echo 0.1.0-dev+$$(git rev-parse --short HEAD 2>/dev/null || echo local))
endif
GO_TAGS    := desktop,production,webkit2_41
COMMIT     := $(shell git rev-parse HEAD 2>/dev/null)
BUILD_DATE := $(shell date -u +%Y-%m-%dT%H:%M:%SZ)
# PIE as Debian builds its Go programs; no local paths in the binary. make dist builds
# with the same flags, so it reuses the compiled packages of `make build`.
GO_BUILD_FLAGS := -trimpath -buildmode=pie
LDFLAGS    := -s -w -X main.version=$(VERSION) -X fixthis/cli.commit=$(COMMIT) -X fixthis/cli.buildDate=$(BUILD_DATE)
GO_SOURCES := $(shell find . -name '*.go' -not -path './frontend/node_modules/*' 2>/dev/null) go.mod go.sum
FRONTEND_SOURCES := $(shell find frontend/src frontend/index.html frontend/vite.config.ts frontend/package.json -type f 2>/dev/null)

# System packages: building the window (GTK + WebKitGTK 4.1), the adb server, and the
# test tools (a virtual display, Chromium for the browser tests, ImageMagick for the
# screenshot checks, ffmpeg to decode the live video stream; for the voice tests
# espeak-ng and sox make the speech, PulseAudio is the window's private microphone
# and xdotool presses Talk in the window; stress-ng loads the cores for test-e2e-stress;
# actionlint checks the workflows' shell steps with shellcheck).
BUILD_PKGS := build-essential pkg-config libgtk-3-dev libwebkit2gtk-4.1-dev
# gstreamer1.0-libav lets the window's WebKitGTK decode the H.264 live preview.
RUN_PKGS   := adb gstreamer1.0-libav
TEST_PKGS  := xvfb xauth x11-utils chromium imagemagick curl fonts-dejavu-core ffmpeg espeak-ng sox pulseaudio pulseaudio-utils xdotool stress-ng shellcheck
# Release packaging (make dist): dpkg-shlibdeps and lintian, the launcher-entry
# validator, NSIS for the Windows installer, `file` and 7-Zip (reads the installer)
# for the package checks.
DIST_PKGS  := dpkg-dev lintian desktop-file-utils nsis file p7zip-full

# SAY prints what a long step is about to do, so a first run is never silent for minutes.
SAY := @printf '\n==> %s\n'

# macOS has no apt: `make build` there needs only the Xcode command line tools, Go and
# Node. Wails' window links Cocoa and WebKit; newer SDKs also need
# UniformTypeIdentifiers, which `wails build` adds the same way.
UNAME_S := $(shell uname -s)
ifeq ($(UNAME_S),Darwin)
export CGO_CFLAGS  += -mmacosx-version-min=10.13
export CGO_LDFLAGS += -framework UniformTypeIdentifiers -mmacosx-version-min=10.13
# macOS asks for the microphone only on behalf of a program that says why
# (NSMicrophoneUsageDescription); a binary outside an .app bundle says it in an
# Info.plist linked into its __TEXT,__info_plist section. Not yet tried on a Mac.
export CGO_LDFLAGS += -Wl,-sectcreate,__TEXT,__info_plist,$(abspath build/darwin/Info.plist)
endif

.PHONY: lint-workflows fuzz help run serve build frontend test test-go test-frontend test-e2e test-e2e-stress test-mcp test-desktop test-cross test-dist dist bench install uninstall deps deps-test deps-dist deps-node clean

help:
	@echo "make run    install what is missing, build, start FixThis (demo device when no phone is connected)"
	@echo "make test   install test dependencies and run every test"
	@echo "make build  build $(BIN) (console embedded)"
	@echo "make bench  print performance figures against the simulated device"
	@echo "make install  install fixthis, its launcher entry and icon under ~/.local"
	@echo "make dist   build the release packages into dist/ (.deb, Linux and macOS tarballs, Homebrew formula, Windows exe and installer)"

## Set-up ---------------------------------------------------------------------------

deps: ## system packages needed to build and run
ifeq ($(UNAME_S),Darwin)
	@xcode-select -p >/dev/null 2>&1 || { echo "error: install the Xcode command line tools: xcode-select --install" >&2; exit 1; }
else
	@scripts/apt-ensure.sh $(BUILD_PKGS) $(RUN_PKGS)
endif
	@scripts/check-toolchain.sh

deps-test: deps
	@scripts/apt-ensure.sh $(TEST_PKGS) $(DIST_PKGS)

deps-dist: deps
	@scripts/apt-ensure.sh $(DIST_PKGS)

deps-node: frontend/node_modules/.package-lock.json tests/mcp/node_modules/.package-lock.json

frontend/node_modules/.package-lock.json: frontend/package.json frontend/package-lock.json
	$(SAY) "npm ci: the console's npm packages into frontend/node_modules"
	cd frontend && npm ci --no-audit --no-fund
	@touch $@

tests/mcp/node_modules/.package-lock.json: tests/mcp/package.json tests/mcp/package-lock.json
	$(SAY) "npm ci: the MCP checks' npm packages into tests/mcp/node_modules"
	cd tests/mcp && npm ci --no-audit --no-fund
	@touch $@

## Build ----------------------------------------------------------------------------

frontend: frontend/dist/index.html

frontend/dist/index.html: frontend/node_modules/.package-lock.json $(FRONTEND_SOURCES)
	$(SAY) "Building the console (Vite) into frontend/dist"
	cd frontend && npm run build

build: deps deps-node $(BIN) $(FAKE_BIN)

$(FAKE_BIN): $(GO_SOURCES)
	$(SAY) "Building $(FAKE_BIN) (the fake Realtime server the voice tests talk to)"
	go build $(GO_BUILD_FLAGS) -o $(FAKE_BIN) ./internal/realtimefake/cmd/realtime-fake

ifeq ($(UNAME_S),Darwin)
$(BIN): frontend/dist/index.html $(GO_SOURCES)
	$(SAY) "Building $(BIN) (the first build downloads the Go modules and compiles the window: a few minutes)"
	go build $(GO_BUILD_FLAGS) -tags $(GO_TAGS) -ldflags "$(LDFLAGS)" -o $(BIN) .
else
$(BIN): frontend/dist/index.html $(GO_SOURCES)
	$(SAY) "Building $(WINDOW_BIN) (GTK + WebKitGTK through cgo; the first build downloads the Go modules: a few minutes)"
	go build $(GO_BUILD_FLAGS) -tags $(GO_TAGS) -ldflags "$(LDFLAGS)" -o $(WINDOW_BIN) .
	$(SAY) "Building $(BIN)"
	go build $(GO_BUILD_FLAGS) -ldflags "$(LDFLAGS) -X fixthis/cli.windowBinary=fixthis-window" -o $(BIN) .
endif

## Run ------------------------------------------------------------------------------

# The demo device's app has its source in examples/trailhead, so by default the console
# shows real source candidates. Point PROJECT at your own Android project instead.
PROJECT ?= examples/trailhead

run: build
	./$(BIN) --project-dir $(PROJECT) $(ARGS)

serve: build
	./$(BIN) serve --project-dir $(PROJECT) $(ARGS)

## Test -----------------------------------------------------------------------------

# FIXTHIS_TEST_RUN marks every process a test run starts (see scripts/check-leftovers.sh):
# after the tests, passed or failed, any process still carrying it fails the run.
TEST_RUN_MARKER := $(shell date +%s%N)-$(shell echo $$PPID)

test: export FIXTHIS_TEST_RUN ?= $(TEST_RUN_MARKER)
test: deps-test deps-node $(BIN) $(FAKE_BIN)
	status=0; $(MAKE) --no-print-directory lint-workflows test-go test-frontend test-e2e test-mcp test-desktop test-cross test-dist || status=$$?; \
	  scripts/check-leftovers.sh || status=1; exit $$status
	$(SAY) "make test: every test group passed, and left no process running"

# actionlint (pinned in scripts/actionlint/go.mod) checks every workflow in
# .github/workflows: syntax, expressions, action inputs, and the shell steps through
# shellcheck.
lint-workflows:
	$(SAY) "lint-workflows: actionlint on .github/workflows"
	go tool -modfile=scripts/actionlint/go.mod actionlint -no-color

# One package at a time: several packages start, kill and restart private adb servers
# and measure latencies; on two cores, running them side by side only adds noise.
# FIXTHIS_REQUIRE_FFMPEG turns a missing ffmpeg into a failure instead of a skip.
# The fake Realtime server's shapes are checked against openai-go in its own module.
# check-tidy fails when a module's go.mod or go.sum differs from what go mod tidy writes.
test-go:
	$(SAY) "test-go: go.mod tidy, go vet, then go test one package at a time"
	scripts/check-tidy.sh
	go vet ./...
	FIXTHIS_REQUIRE_FFMPEG=1 go test -count=1 -p 1 ./...
	cd internal/realtimefake/openaicheck && go vet . && go test -count=1 .

test-frontend:
	$(SAY) "test-frontend: svelte-check, the console's unit tests (Vitest) and its bundle budget"
	cd frontend && npm run check && npm test && npm run bundle-size

test-e2e: export FIXTHIS_TEST_RUN ?= $(TEST_RUN_MARKER)
test-e2e: $(BIN) $(FAKE_BIN)
	$(SAY) "test-e2e: the console in Chromium against fixthis serve and simulated phones, one file at a time"
	status=0; (cd frontend && FIXTHIS_BIN=$(abspath $(BIN)) npm run e2e) || status=$$?; \
	  scripts/check-leftovers.sh || status=1; exit $$status

# Not part of make test (it takes ~30 min): the e2e suite five times under full CPU load.
test-e2e-stress: deps-test deps-node $(BIN) $(FAKE_BIN)
	$(SAY) "test-e2e-stress: the e2e suite five times in a row while stress-ng loads every core"
	FIXTHIS_BIN=$(abspath $(BIN)) scripts/e2e-stress.sh 5

test-mcp: $(BIN)
	$(SAY) "test-mcp: MCP clients we did not write (the official SDK, the Inspector CLI, the conformance suite)"
	cd tests/mcp && FIXTHIS_BIN=$(abspath $(BIN)) npm test

test-desktop: $(BIN) $(FAKE_BIN)
	$(SAY) "test-desktop: the real window under Xvfb"
	scripts/desktop-smoke.sh $(BIN)
	scripts/desktop-window-place.sh $(BIN)
	scripts/desktop-resume.sh $(BIN)
	scripts/voice-smoke.sh $(BIN) $(FAKE_BIN)

# macOS and Windows cannot build the window here (macOS needs cgo against Cocoa), but
# serve mode and every CLI command must compile for them.
test-cross:
	$(SAY) "test-cross: serve mode and every command compile for macOS and Windows"
	GOOS=darwin go vet ./...
	GOOS=darwin go build -o /dev/null .
	GOOS=windows go vet ./...
	cd scripts/dist/disttool && go vet ./... && test -z "$$(gofmt -l .)"

# Builds the packages, then installs and runs them (see scripts/dist/test.sh).
test-dist: dist
	$(SAY) "test-dist: check the packages; install and remove the .deb"
	scripts/dist/test.sh dist

## Release packages ------------------------------------------------------------------

# The Debian package's maintainer field; the last commit's author unless given.
DEB_MAINTAINER ?= $(shell git log -1 --format='%an <%ae>' 2>/dev/null)
# Where the Homebrew formula downloads the macOS tarballs from (default: dist/ itself,
# as a file:// URL) and the formula's home page (optional). The release workflow
# passes the release's download folder.
RELEASE_URL ?=
HOMEPAGE    ?=
DIST_ONLY   ?= linux,darwin,windows

dist: deps-dist frontend/dist/index.html
	$(SAY) "dist: the .deb, the Linux and macOS tarballs, the Homebrew formula, the Windows exe and its installer into dist/ (a few minutes)"
	VERSION='$(VERSION)' GO_TAGS='$(GO_TAGS)' GO_BUILD_FLAGS='$(GO_BUILD_FLAGS)' LDFLAGS='$(LDFLAGS)' DEB_MAINTAINER='$(DEB_MAINTAINER)' \
	  RELEASE_URL='$(RELEASE_URL)' HOMEPAGE='$(HOMEPAGE)' DIST_ONLY='$(DIST_ONLY)' scripts/dist/build.sh

# Installs for the current user: the binary, a launcher entry and the icon (no root).
PREFIX ?= $(HOME)/.local

install: build
	install -D -m 0755 $(BIN) $(PREFIX)/bin/fixthis
	if [ -f $(WINDOW_BIN) ]; then install -D -m 0755 $(WINDOW_BIN) $(PREFIX)/lib/fixthis/fixthis-window; fi
	install -D -m 0644 build/linux/fixthis.desktop $(PREFIX)/share/applications/fixthis.desktop
	install -D -m 0644 build/appicon.png $(PREFIX)/share/icons/hicolor/512x512/apps/fixthis.png
	@echo "Installed $(PREFIX)/bin/fixthis; make sure $(PREFIX)/bin is on PATH."

uninstall:
	rm -f $(PREFIX)/bin/fixthis $(PREFIX)/lib/fixthis/fixthis-window $(PREFIX)/share/applications/fixthis.desktop $(PREFIX)/share/icons/hicolor/512x512/apps/fixthis.png

bench: build
	scripts/bench.sh

# Every fuzz target for FUZZTIME each (default 5s); make test runs their seed corpora.
fuzz:
	scripts/fuzz.sh

clean:
	rm -rf build/bin build/dist dist frontend/dist/assets frontend/dist/index.html test-results
