# VoiceAlarm: two commands on a fresh Debian 12 machine with the Swift 6 toolchain:
#   make demo   install what is missing, build, render a ringtone from SampleAudio
#   make test   install what is missing, then run every test
# and the Debian package: make deb (then: sudo apt install ./voicealarm_*.deb), make test-deb.

SHELL := /bin/bash
.DEFAULT_GOAL := demo

# Debian packages. Building needs only the C libraries VoiceAlarm links (BUILD_PACKAGES: make
# build, install, deb); the demo adds Python for reading JSON; the tests add the independent
# tools they check results with (TEST_PACKAGES). make deb adds Debian's packaging tools, make
# test-deb what its checks run.
BUILD_PACKAGES := pkg-config libavformat-dev libavcodec-dev libavutil-dev libswresample-dev libespeak-ng-dev \
                  libavfilter-dev libebur128-dev libsqlite3-dev libasound2-dev libsndfile1-dev libgnutls28-dev libqrencode-dev libmicrohttpd-dev \
                  libical-dev libmosquitto-dev libarchive-dev nettle-dev
DEMO_PACKAGES := python3
TEST_PACKAGES := ffmpeg sox espeak-ng python3 python3-venv \
                 alsa-utils systemd faketime tmux time strace groff-base man-db zsh fish pulseaudio pulseaudio-utils libasound2-plugins libcap2-bin librsvg2-bin espeak-ng-data \
                 openssl libnss3-tools iproute2 zbar-tools qrencode chromium chromium-driver curl \
                 mosquitto nodejs eslint webkit2gtk-driver xvfb xauth gstreamer1.0-plugins-good gstreamer1.0-plugins-bad gstreamer1.0-libav
DEBIAN_PACKAGES := $(BUILD_PACKAGES) $(TEST_PACKAGES)
DEB_PACKAGES := dpkg-dev lintian
TEST_DEB_PACKAGES := bash-completion man-db systemd tmux zsh fish python3
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
VENV := .build/venv
PYTHON := $(VENV)/bin/python
BIN := .build/debug/voicealarm
# Every debug build make runs keeps line tables only: file and line in every backtrace, without the
# full debug information that made a tenth of a clean build (swift build --build-tests in a fresh
# clone: 177 s with it, 159 s without). One set of flags for every target below, so none rebuilds
# another's work; a plain `swift build` (full -g) does rebuild.
DEBUG_FLAGS := -Xswiftc -gline-tables-only

.PHONY: deps build-deps build build-tests demo test lint lint-page test-ha test-repeat test-full sanitize soak test-cluster bench bench-walk bench-corpus bench-web bench-start clean samples docs picture install uninstall \
        deb-deps deb test-deb test-cpu

# Installs whichever of the packages in $(1) are missing (apt-get; through sudo when not root),
# asking dpkg-query once for all of them.
define install_packages
	@command -v swift >/dev/null || { echo "error: swift: the Swift 6 toolchain is not on PATH (see README)" >&2; exit 1; }
	@missing=$$(dpkg-query -W -f='$${Package} $${Status}\n' $(1) 2>/dev/null | awk '$$NF == "installed" {ok[$$1] = 1} END {n = split("$(strip $(1))", want, " "); for (i = 1; i <= n; i++) if (!(want[i] in ok)) print want[i]}'); \
	if [ -n "$$missing" ]; then \
	  echo "Installing Debian packages:" $$missing; \
	  $(SUDO) apt-get update -qq && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi
endef

# Everything: what building needs and the tests' tools.
deps:
	$(call install_packages,$(DEBIAN_PACKAGES))

# What building alone needs (make build, install, deb): not the test toolchain.
build-deps:
	$(call install_packages,$(BUILD_PACKAGES))

build: build-deps
	swift build $(DEBUG_FLAGS)

# Python helpers for tests live in a virtual environment inside the build folder. Not compiled
# ahead (--no-compile): Python compiles what the tests import when they first do, and compiling
# all of SciPy and NumPy took 6 of pip's 11 CPU-seconds, beside the build.
$(PYTHON): Tests/Support/requirements.txt
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install -q --no-compile --disable-pip-version-check -r Tests/Support/requirements.txt
	touch $(PYTHON)

demo: build
	$(call install_packages,$(DEMO_PACKAGES))
	@scripts/demo.sh $(BIN)

# One run, every suite at once. No test holds a thread while it waits (processes end through
# their termination, polls suspend), so the clock suites share the run with the rest; at most
# TEST_WIDTH tests run at a time (Swift Testing would otherwise start all of them), so hang
# guards time a test's own work, not its wait for a free core. Twelve, not eight: many tests
# spend their time waiting (a ring of seconds, a server, a browser), and with eight the cores
# idled while the run's longest tests started late (a warm run: 250 s at 8, 235 s at 12).
TEST_WIDTH ?= 12
TEST_ENV := VOICEALARM_BIN=$(CURDIR)/$(BIN) VOICEALARM_TEST_PYTHON=$(CURDIR)/$(PYTHON) \
            SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=$(TEST_WIDTH)

# The page's own files (Sources/VoiceAlarmWeb/Page): Debian's eslint over its scripts, ES modules
# (*.mjs) and the service workers (rules in Tests/Page/eslintrc.json; NODE_PATH finds Debian's eslint
# modules whichever Node runs it), then the modules' logic under Node's test runner
# (Tests/Page/*.test.mjs, which import the page's own modules). A second or two; part of make test.
PAGE_DIR := Sources/VoiceAlarmWeb/Page
lint-page: deps
	NODE_PATH=/usr/share/nodejs eslint --no-eslintrc -c Tests/Page/eslintrc.json -f unix $(PAGE_DIR)/*.js $(PAGE_DIR)/*.mjs Tests/Page/*.mjs
	node --test --test-reporter=spec Tests/Page/

# The Swift sources as .swift-format says (swift format, from the toolchain), and the page's own
# files (lint-page): part of make test.
lint: deps lint-page
	swift format lint --strict --parallel -r Sources Tests Examples Package.swift

# After the run, the ten slowest tests (by the time their cases ran, from the event stream).
# The browsers and the sound server run beside the rest, in a process of their own
# (scripts/run_tests.sh says why).
test: deps lint build-tests
	$(TEST_ENV) scripts/run_tests.sh .build/test-events.jsonl; status=$$?; \
	  python3 scripts/slowest_tests.py .build/test-events.jsonl 10 || true; exit $$status

# Everything the tests need, in one swift build (the product and the test targets together, so
# neither core idles at the end of one build while the other waits), while the Python venv is
# made beside it (mostly downloads; its log is shown only if it fails).
build-tests: deps
	@mkdir -p .build
	@$(MAKE) --no-print-directory $(PYTHON) > .build/venv.log 2>&1 & venv=$$!; \
	  swift build --build-tests $(DEBUG_FLAGS); built=$$?; \
	  wait $$venv || { echo "error: the test Python venv could not be made:" >&2; cat .build/venv.log >&2; exit 1; }; \
	  exit $$built

# make test N times over one build (N=5 by default), then every test that failed in any run, with
# the runs it failed in and its first message (scripts/failed_tests.py): a flake is a bug, and
# this is how one is found. Each run's output is kept in .build/test-repeat-K.log.
N ?= 5
test-repeat: deps lint build-tests
	@rm -f .build/test-repeat-*.jsonl; \
	  for run in $$(seq $(N)); do \
	    start=$$SECONDS; \
	    $(TEST_ENV) scripts/run_tests.sh .build/test-repeat-$$run.jsonl > .build/test-repeat-$$run.log 2>&1; \
	    echo "run $$run of $(N): exit $$?, $$((SECONDS - start)) s"; \
	  done; \
	  python3 scripts/failed_tests.py $$(seq -f '.build/test-repeat-%g.jsonl' $(N))

# Every case of the exhaustive sweeps as well (TestScope.full in the tests: every shard engine, every
# SIGKILL point, every case of the table-driven sweeps that make test samples): run before a change
# to those parts is called done. About twice as long as make test. It also runs the test that sets
# the machine's wall clock (date -s, to the time it already is; as root only), which make test never does.
test-full: deps build-tests
	$(TEST_ENV) VOICEALARM_TEST_FULL=1 VOICEALARM_TEST_CLOCK_STEP=1 scripts/run_tests.sh .build/test-events.jsonl; status=$$?; \
	  python3 scripts/slowest_tests.py .build/test-events.jsonl 10 || true; exit $$status

# The Home Assistant bridge with a real Home Assistant core (2025.4.4, the newest that runs on the
# image's Python 3.13.0 from pyenv, in a venv of its own; a few minutes the first time) and a real
# Mosquitto (Tests/Support/home_assistant.py, through ../shared/ha's harness, copied in
# Tests/Support/ha_harness.py). Not part of make test: about a minute, and Home Assistant's install.
HA_VENV := .build/havenv
$(HA_VENV)/bin/hass:
	@py=$$(pyenv root 2>/dev/null)/versions/3.13.0/bin/python; [ -x "$$py" ] || py=python3.13; \
	  $$py -m venv $(HA_VENV) && $(HA_VENV)/bin/pip install -q --disable-pip-version-check homeassistant==2025.4.4 paho-mqtt==2.1.0

test-ha: deps build $(HA_VENV)/bin/hass
	VOICEALARM_SAMPLES=$(CURDIR)/SampleAudio HA_PYTHON=$(CURDIR)/$(HA_VENV)/bin/python python3 Tests/Support/home_assistant.py $(CURDIR)/$(BIN)

# The example app (Examples/WakeUpToMyVoice), not part of `make test`: built through SwiftPM as an
# app would build it (a second full build of the library, in the example's own .build: minutes),
# then run on a temporary library with SampleAudio/calm.wav. `make test` checks the same main.swift
# more cheaply, compiled against this build's libVoiceAlarm.so (ExamplePackageTests).
EXAMPLE := Examples/WakeUpToMyVoice
.PHONY: examples

examples: build-deps
	swift build --package-path $(EXAMPLE)
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	$$(swift build --package-path $(EXAMPLE) --show-bin-path)/WakeUpToMyVoice "$$tmp/library" SampleAudio/calm.wav

# Sanitizers, not part of `make test` (each builds everything again, in its own folder): AddressSanitizer
# (with LeakSanitizer) over the audio, batch and library tests, and ThreadSanitizer over the parallel
# paths (a batch with several jobs, `build` with several workers, the rebuild pool, the shared clip cache). The CLI tests
# run the sanitized binary, so a report from it fails them too. Tests run one at a time: a sanitized
# build is several times slower, and time limits must still mean something. ThreadSanitizer's second
# of sleep at exit is off: a Ctrl-C's exit must not give the workers a second to run on.
ASAN_TESTS := VoiceAlarmAudioTests|VoiceAlarmFuzzTests|VoiceAlarmLibraryTests|BatchCommandTests|BatchCleanupTests|BoundedInputTests|BadInputTests|LibraryCommandTests
TSAN_TESTS := ParallelPathsTests|RebuildPoolTests|ClipSourceTests|BatchCommandTests|BatchCleanupTests
SANITIZER_ENV = VOICEALARM_TEST_PYTHON=$(abspath $(PYTHON)) \
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 LSAN_OPTIONS=suppressions=$(CURDIR)/Tests/Support/lsan-suppressions.txt \
  TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1:atexit_sleep_ms=0

sanitize: deps $(PYTHON)
	swift build --build-tests --sanitize=address --build-path .build/asan
	$(SANITIZER_ENV) VOICEALARM_BIN=$(CURDIR)/.build/asan/debug/voicealarm \
	  swift test --skip-build --no-parallel --sanitize=address --build-path .build/asan --filter '$(ASAN_TESTS)'
	swift build --build-tests --sanitize=thread --build-path .build/tsan
	$(SANITIZER_ENV) VOICEALARM_BIN=$(CURDIR)/.build/tsan/debug/voicealarm \
	  swift test --skip-build --no-parallel --sanitize=thread --build-path .build/tsan --filter '$(TSAN_TESTS)'

# A soak, not part of `make test`: the daemon through 8 simulated hours (about half a minute), in a
# process of its own so the resident memory it measures is the daemon's.
soak: deps build
	VOICEALARM_SOAK=1 swift test $(DEBUG_FLAGS) --filter DaemonSoakTests

# The Slurm recipe on a real one-node Slurm, not part of `make test` (about a minute): installs
# slurm-wlm and munge if missing, starts munged, slurmctld and slurmd on a configuration of its own
# in .build/slurm (scripts/slurm_cluster.sh; nothing written to /etc, no cgroups), runs
# deploy/slurm/batch-ringtones.sbatch and a dependent --verify job, changes one clip and runs both
# again (scripts/cluster_test.py), then stops the daemons it started. Needs root (sudo otherwise).
# CLUSTER_BIN=path runs another voicealarm binary instead of building the debug one.
CLUSTER_PACKAGES := slurm-wlm munge
CLUSTER_BIN ?= $(BIN)

test-cluster: deps
	$(call install_packages,$(CLUSTER_PACKAGES))
	@[ "$(CLUSTER_BIN)" != $(BIN) ] || swift build $(DEBUG_FLAGS) --product voicealarm
	@$(SUDO) scripts/cluster_test.py $(abspath $(CLUSTER_BIN))

# A benchmark, not a test: batch against the ffmpeg CLI and the encoder-only bound, in one run,
# and the difficult recordings' speed and quality (the venv's pyloudnorm measures them).
bench: deps $(PYTHON)
	@scripts/bench.sh

# The per-corpus rows of the benchmark for the difficult recordings and their bedded clips alone
# (about ten minutes): speed against like-for-like, ffmpeg's two-pass loudnorm, the loaded encoder
# bound and the ffmpeg CLI, then each ringtone's loudness, true peak, joins and passes.
bench-corpus: deps $(PYTHON)
	@swift build -c release --product voicealarm >/dev/null && swift build -c release --product voicealarm-bench >/dev/null && \
	work=$$(mktemp -d) && trap 'rm -rf "$$work"' EXIT && \
	for corpus in difficult beds; do \
	  python3 scripts/bench_corpus.py $(CURDIR)/.build/release/voicealarm "$$work" $(CURDIR)/$(PYTHON) "$$work/results.txt" $$(nproc) $$corpus \
	    --bound $(CURDIR)/.build/release/voicealarm-bench || exit 1; \
	done && \
	python3 scripts/bench_table.py "$$work/results.txt" 0 0 $$(nproc)

# The walk rows of the benchmark alone: build --all, reconcile and settings over 1,000 voice alarms
# with nothing to build, against alarm list of the same library.
bench-walk: deps
	@scripts/bench_walk.sh

# Where a test run's CPU goes (root: the kernel's process accounting): every process the run
# started, the binary's starts by command and by test folder (scripts/test_cpu.py).
test-cpu: deps build-tests
	$(call install_packages,acct)
	@python3 scripts/test_cpu.py $(TEST_WIDTH)

# How fast a command that neither renders nor plays starts (--version, alarm list on 20 alarms,
# doctor), built as packaged, against BENCH_START_BASE built the same way in the same run and
# against sqlite3 -version; the resident memory of alarm list and of the idle daemon.
bench-start: deps
	$(call install_packages,hyperfine sqlite3)
	@scripts/bench_start.sh

# The web rows of the benchmark alone: the page's load on loopback in Chromium, and a 30 s
# recording from upload to rebuilt ringtone, each against a peer measured in the same run.
bench-web: deps $(PYTHON)
	@swift build -c release --product voicealarm >/dev/null && work=$$(mktemp -d) && trap 'rm -rf "$$work"' EXIT && \
	$(CURDIR)/$(PYTHON) scripts/bench_web.py $(CURDIR)/.build/release/voicealarm "$$work" $(CURDIR)/$(PYTHON)

# Installing for keeps (optional): the release binary, man pages and completions under PREFIX.
PREFIX ?= $(if $(filter 0,$(shell id -u)),/usr/local,$(HOME)/.local)
DESTDIR ?=
INSTALL_BIN ?= .build/release/voicealarm

install: build-deps
	@[ "$(INSTALL_BIN)" != .build/release/voicealarm ] || swift build -c release --product voicealarm
	@scripts/install.sh install "$(PREFIX)" "$(DESTDIR)" "$(INSTALL_BIN)"

uninstall:
	@scripts/install.sh uninstall "$(PREFIX)" "$(DESTDIR)"

# The Debian package, voicealarm_<version>_<arch>.deb in the checkout's root, for
# 'sudo apt install ./voicealarm_*.deb' (scripts/make_deb.sh; packaging files in deploy/debian):
# a release build with the Swift runtime linked in (--static-swift-stdlib; no $ORIGIN run path;
# BIND_NOW as Debian's hardening=+all), stripped, and Debian's tools around it: dpkg-shlibdeps
# for Depends, dpkg-gencontrol, dpkg-deb, then lintian, which must find nothing at warning or
# error level. A working tree with uncommitted changes is refused unless ALLOW_DIRTY=1. A few
# minutes for the release build (then only a relink: the options above change the link alone).
DEB_BUILD := swift build -c release --product voicealarm --static-swift-stdlib --disable-local-rpath -Xlinker -z -Xlinker now
DEB_OUT ?= .
DEB_FILE = $(DEB_OUT)/voicealarm_$$(.build/release/voicealarm --version | cut -d' ' -f2)_$$(dpkg --print-architecture).deb

deb-deps:
	$(call install_packages,$(BUILD_PACKAGES) $(DEB_PACKAGES))

deb:
	@ALLOW_DIRTY=$(ALLOW_DIRTY) scripts/make_deb.sh check-tree
	@$(MAKE) --no-print-directory deb-deps
	$(DEB_BUILD)
	@ALLOW_DIRTY=$(ALLOW_DIRTY) scripts/make_deb.sh build .build/release/voicealarm $(DEB_OUT)
	lintian --fail-on error,warning $(if $(filter 0,$(shell id -u)),--allow-root) $(DEB_FILE)

# The package as a person meets it (scripts/test_deb.sh, about a minute after make deb): lintian,
# dpkg -i, then as an ordinary user --version, man -w, bash completion of 'voicealarm al<TAB>',
# a first voice alarm that rings into a file, service install choosing the package's unit,
# systemd-analyze verify of its user units; ldd against Depends; dpkg -r and -P leaving nothing of
# the package and the user's data dir as it was. All of it in a throwaway overlay of this machine
# (a mount namespace and a chroot: needs root, through sudo otherwise); the machine is not changed.
# Not part of make test: with the release build it takes longer than the test budget allows.
test-deb: deb
	$(call install_packages,$(TEST_DEB_PACKAGES))
	@$(SUDO) scripts/test_deb.sh $(DEB_FILE)

# The man pages, completions and the package's user units, written from the command tables
# (checked in; a test compares).
docs: build
	.build/debug/voicealarm-docs share

samples:
	SampleAudio/make-samples.sh

# The README's picture of a ringtone, drawn from SampleAudio (checked in as docs/ringtone.svg).
picture: build
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	$(BIN) render -q -o "$$tmp/ringtone.m4a" --waveform docs/ringtone.svg \
	  SampleAudio/calm.wav SampleAudio/ready.mp3 SampleAudio/grateful.m4a SampleAudio/manifesto.flac SampleAudio/kind.ogg >/dev/null && \
	echo "wrote docs/ringtone.svg"

clean:
	rm -rf .build demo-output
