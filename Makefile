# raftlab: build, serve and test. `make help` lists the targets.

SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help
MAKEFLAGS += --no-print-directory

GO     ?= go
ADDR   ?= 127.0.0.1:8080
GOROOT  = $(shell $(GO) env GOROOT)
GOFMT   = $(GOROOT)/bin/gofmt

# Packages that must also pass their tests compiled to WebAssembly (run in Node): those
# of these patterns that the browser build ($(WASM_PKG)) compiles in. The others (such as
# raftcore/explore and the poster drawing) never run in a browser; `make unit` tests them.
WASM_TEST_PATTERNS := ./raftcore/... ./scenarios/... ./viz/...

# The browser app; WASM_PKG can point elsewhere for a one-off build.
WASM_PKG       ?= ./cmd/wasm
# Packages whose tests draw with Ebiten (behind the desktop tag; they need a display).
DRAW_TEST_PKGS := ./viz/draw/...
# The desktop app: the launcher, which links no graphics and answers -h anywhere, and the
# window program it hands over to, built beside it. Either can point elsewhere for a one-off
# build.
DESKTOP_PKG    ?= ./cmd/desktop
WINDOW_PKG     ?= ./cmd/desktop/window

.PHONY: help deps run wasm posters release desktop test check check-serial lane-browser lane-native fmt-check vet unit wasm-unit e2e-browser e2e-desktop bench bench-app bench-book bench-framerate explore mutants random-long font clean

help:
	@echo "make deps         install missing Debian packages (chromium, xvfb, brotli, X11 headers, ...)"
	@echo "make run          build the WebAssembly app and serve web/ on http://$(ADDR)"
	@echo "make wasm         build web/raftlab.wasm and copy wasm_exec.js (no compression)"
	@echo "make posters      draw every figure's posters again into web/posters (SVG, committed)"
	@echo "make release      make wasm, then web/raftlab.wasm.gz and .br for hosting (brotli -q 11: about a minute)"
	@echo "make desktop      build bin/raftlab-desktop (and its window program beside it) and run it"
	@echo "make test         gofmt, vet, unit tests (native and GOOS=js), browser and desktop tests"
	@echo "make check        the steps of make test, without its package check up front and its shared Xvfb;"
	@echo "                  the browser tests run alongside the others (check-serial: one after another)"
	@echo "make unit         go test ./... (natively: no browser, display or Node)"
	@echo "make vet          go vet ./..., and with the browser and desktop tags over e2e/ and viz/draw/"
	@echo "make bench        run the benchmarks"
	@echo "make bench-app    measure the app in headless Chromium and its download size (slow)"
	@echo "make bench-framerate  frames per second without a GPU, against the bare Ebiten program"
	@echo "                  and RaftScope (RAFTLAB_RAFTSCOPE=dir) (slow)"
	@echo "make bench-book   the page of every figure: posters, live first frame, memory (slow)"
	@echo "make explore      search every run of 3 machines within EXPLORE_BOUNDS, and around a deposed leader"
	@echo "                  within EXPLORE_READ_BOUNDS, for a broken rule; then the shortest run for each injected bug"
	@echo "make mutants      apply each bug of raftcore/testdata/mutants in turn; fail if a test misses one (~10 min)"
	@echo "make random-long  100,000 random runs of 1 to 9 machines under the independent checker (~20 min)"
	@echo "make font         cut viz/fonts/mplus-1p-regular-latin.ttf again from Ebiten's M+ 1p (needs pyftsubset)"
	@echo "make clean        remove build outputs and test artifacts"

deps:
	@scripts/deps.sh all

# --- WebAssembly -------------------------------------------------------------------------

# `make wasm` and `make run` do not compress: brotli -q 11 of the binary takes longer than
# the Go build, and over the loopback the uncompressed file arrives at once. The server
# ignores a compressed sibling older than raftlab.wasm; a rebuild removes the old ones all the
# same, so that a copy of web/ to another host cannot carry them.
# Packages whose code runs when a figure opens, a command arrives, a panel's words are written,
# a picture is saved (viz/svg) or the page passes an event (cmd/wasm), never in the engine's or
# the painter's inner loops, are built without inlining: there every call to a small helper was
# a copy of its body, 125 KB of the gzip download in all (the figures' builders most of it), and
# the frames and stories measured take no longer for it (BENCHMARKS.md, "Three packages not
# inlined"). e2e's buildWasm uses the same flags (wasmGCFlags).
WASM_GCFLAGS ?= -gcflags=raftlab/scenarios=-l -gcflags=raftlab/viz/app/command=-l -gcflags=raftlab/viz/words=-l \
	-gcflags=raftlab/viz/svg=-l -gcflags=raftlab/cmd/wasm=-l

wasm:
	@mkdir -p bin
	GOOS=js GOARCH=wasm $(GO) build -trimpath $(WASM_GCFLAGS) -ldflags='-s -w' -o bin/raftlab.wasm.new $(WASM_PKG)
	@# Replace the output only when it changed, so that `make release`'s compressed files stay current.
	@if cmp -s bin/raftlab.wasm.new web/raftlab.wasm; then rm bin/raftlab.wasm.new; \
	else mv bin/raftlab.wasm.new web/raftlab.wasm; rm -f web/raftlab.wasm.gz web/raftlab.wasm.br; \
		echo "wrote web/raftlab.wasm ($$(stat -c %s web/raftlab.wasm) bytes)"; fi
	@cmp -s "$(GOROOT)/lib/wasm/wasm_exec.js" web/wasm_exec.js || cp "$(GOROOT)/lib/wasm/wasm_exec.js" web/wasm_exec.js

# Every figure's still pictures (its opening and its key moment), drawn as
# SVG from the app's own frames; committed, and checked by
# TestPostersAreCurrent (viz/app/poster).
posters:
	$(GO) run ./cmd/posters -dir web/posters

# web/ ready to copy to a host: the app and its precompressed siblings, which cmd/serve (and
# servers such as nginx with gzip_static and brotli_static) send to browsers that accept them.
# The compressed files are touched after writing: brotli copies the source's mtime, and
# both make and the server treat a sibling older than raftlab.wasm as stale.
release: wasm
	@scripts/deps.sh web
	@if [ ! web/raftlab.wasm.gz -nt web/raftlab.wasm ]; then \
		gzip -9 -n -c web/raftlab.wasm > bin/raftlab.wasm.gz.new && mv bin/raftlab.wasm.gz.new web/raftlab.wasm.gz; \
		touch web/raftlab.wasm.gz; \
		echo "wrote web/raftlab.wasm.gz ($$(stat -c %s web/raftlab.wasm.gz) bytes)"; fi
	@if ! command -v brotli >/dev/null 2>&1; then \
		rm -f web/raftlab.wasm.br; \
		echo "make release: brotli not installed (Debian package brotli); skipping web/raftlab.wasm.br"; \
	elif [ ! web/raftlab.wasm.br -nt web/raftlab.wasm ]; then \
		brotli -q 11 -f -o bin/raftlab.wasm.br.new web/raftlab.wasm && mv bin/raftlab.wasm.br.new web/raftlab.wasm.br; \
		touch web/raftlab.wasm.br; \
		echo "wrote web/raftlab.wasm.br ($$(stat -c %s web/raftlab.wasm.br) bytes)"; fi

# Serves the uncompressed raftlab.wasm, or the siblings of an earlier `make release` if the
# build has not changed since.
run:
	@$(MAKE) wasm
	$(GO) run ./cmd/serve -addr $(ADDR) -dir web

# --- Desktop -----------------------------------------------------------------------------

desktop:
	@scripts/deps.sh desktop
	$(GO) build -o bin/raftlab-desktop $(DESKTOP_PKG)
	CGO_ENABLED=1 $(GO) build -o bin/raftlab-desktop-window $(WINDOW_PKG)
	@if [ -z "$${DISPLAY:-}$${WAYLAND_DISPLAY:-}" ]; then \
		echo "make desktop: built bin/raftlab-desktop, but there is no display to open a window on (DISPLAY is not set)" >&2; exit 1; fi
	./bin/raftlab-desktop

# --- Tests -------------------------------------------------------------------------------

# Everything, under one virtual X display when DISPLAY is not set (Ebiten panics at init
# without a display, so packages that import it need one even for unit tests).
test:
	@scripts/deps.sh all
	@scripts/with-xvfb.sh $(MAKE) check

# After gofmt, two lanes run at once: the browser lane (e2e-browser), which spends
# most of its time waiting on Chromium, and the native lane (vet, unit, wasm-unit,
# e2e-desktop, one after another), niced so that the browser's renderer gets the CPU
# when it asks for it. They share no port (every test server takes a free one) and
# no display (Chromium runs headless; only the desktop tests use the X display).
# Each lane's output is printed whole when that lane ends. `make check-serial` runs
# the same steps one after another.
check: fmt-check
	@echo "make check: the browser lane and the native lane (vet, unit, wasm-unit, e2e-desktop) run at once; each prints its output when it ends"
	@$(MAKE) -j2 --output-sync=recurse lane-browser lane-native

check-serial: fmt-check vet unit wasm-unit e2e-browser e2e-desktop

lane-browser:
	@start=$$(date +%s); status=0; $(MAKE) e2e-browser || status=$$?; \
	echo "== browser lane: $$( [ $$status = 0 ] && echo ok || echo FAILED ) in $$(( $$(date +%s) - start )) s"; exit $$status

# One goal per make, so that the lane's steps run one after another under the jobserver.
lane-native:
	@start=$$(date +%s); status=0; \
	for step in vet unit wasm-unit e2e-desktop; do nice -n 10 $(MAKE) $$step || { status=$$?; break; }; done; \
	echo "== native lane (vet, unit, wasm-unit, e2e-desktop): $$( [ $$status = 0 ] && echo ok || echo FAILED ) in $$(( $$(date +%s) - start )) s"; exit $$status

fmt-check:
	@files=$$(find . -name '*.go' -not -path './.git/*' -not -path '*/testdata/*' -not -path './bin/*' -not -path './artifacts/*'); \
	if [ -z "$$files" ]; then exit 0; fi; \
	out=$$($(GOFMT) -l $$files); \
	if [ -n "$$out" ]; then echo "gofmt -l lists files that need formatting (run gofmt -w):"; echo "$$out"; exit 1; fi; \
	echo "gofmt: ok"

vet:
	$(GO) vet ./...
	$(GO) vet -tags browser,desktop,figureshots ./e2e/... $(DRAW_TEST_PKGS)

unit:
	$(GO) test ./...

wasm-unit:
	@in_app=$$(GOOS=js GOARCH=wasm $(GO) list -deps $(WASM_PKG)); \
	all=$$(GOOS=js GOARCH=wasm $(GO) list $(WASM_TEST_PATTERNS)); \
	pkgs=$$(grep -xF -f <(echo "$$in_app") <<<"$$all" || true); \
	left=$$(grep -vxF -f <(echo "$$in_app") <<<"$$all" || true); \
	[ -n "$$pkgs" ] || { echo "wasm-unit: no package of $(WASM_TEST_PATTERNS) is in $(WASM_PKG)" >&2; exit 1; }; \
	[ -z "$$left" ] || echo "wasm-unit: not in the browser build, so tested natively only:" $$left; \
	echo "GO=$(GO) scripts/go-test-wasm.sh" $$pkgs; \
	GO=$(GO) scripts/go-test-wasm.sh $$pkgs

e2e-browser:
	@scripts/deps.sh browser
	@$(MAKE) wasm
	$(GO) test -count=1 -v -timeout 50m -tags browser ./e2e/...

# The desktop tag also takes in the drawing tests of viz/draw, which paint real frames
# inside Ebiten's game loop and so need a display.
e2e-desktop:
	@scripts/deps.sh desktop xvfb
	scripts/with-xvfb.sh $(GO) test -count=1 -v -timeout 20m -tags desktop ./e2e/... $(DRAW_TEST_PKGS)

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

# Measurements of the app in headless Chromium and of its download (BENCHMARKS.md, "App").
# BENCH selects benchmarks by name, e.g. `make bench-app BENCH=AppPaused`.
BENCH ?= .
bench-app:
	@scripts/deps.sh browser
	@$(MAKE) wasm
	$(GO) test -count=1 -v -tags browser -run '^$$' -bench '$(BENCH)' -benchtime 1x -timeout 60m ./e2e/

# The book's page of every figure in one run (BENCHMARKS.md, "Posters"): poster times down and
# back, the live first frame against the bare Ebiten program, memory after the full scroll.
bench-book:
	@scripts/deps.sh browser
	@$(MAKE) wasm
	$(GO) test -count=1 -v -tags browser -run '^$$' -bench BookPage -benchtime 1x -timeout 30m ./e2e/

# Frames per second without a GPU (BENCHMARKS.md, "App"): the app against the bare Ebiten
# program, and against RaftScope when RAFTLAB_RAFTSCOPE names a checkout of it; with
# RAFTLAB_APP_BEFORE (a directory like web/ holding another build) that build too.
bench-framerate:
	@scripts/deps.sh browser
	$(GO) test -count=1 -v -tags browser -run '^$$' -bench FrameRate -benchtime 1x -timeout 60m ./e2e/

# Exhaustive small-scope exploration (raftcore/explore): every run of three machines within
# the bounds, every state checked; exits 1 on a broken rule or when -max-states stops it first.
# First from a fresh cluster, then around a deposed leader (docs/examples/deposed-leader.json),
# where reads can meet a stale leader; then the tests that find the shortest run for each
# injected bug and search their start states with correct Raft. Takes a minute or two.
EXPLORE_BOUNDS ?= -terms 2 -writes 1 -reads 1 -faults 1 -depth 9
EXPLORE_READ_BOUNDS ?= -terms 2 -writes 1 -reads 1 -faults 0 -depth 7
explore:
	$(GO) build -o bin/raftsim ./cmd/raftsim
	bin/raftsim explore $(EXPLORE_BOUNDS)
	bin/raftsim explore -from docs/examples/deposed-leader.json $(EXPLORE_READ_BOUNDS)
	$(GO) test -count=1 -v -run 'FindsAShortestRun|CorrectRaftKeeps' ./raftcore/explore/

# Mutation testing (docs/testing.md): each single-rule bug listed in
# raftcore/testdata/mutants must make some test of raftcore, raftcore/quorum
# or internal/indepcheck fail. MUTANT=name tries only the matching ones.
MUTANT ?=
mutants:
	$(GO) run ./internal/mutants -only '$(MUTANT)'

# The long job of the independent checker: RUNS random runs from seed 1,
# cluster sizes 1 to 9 in turn. Not part of make test.
RUNS ?= 100000
random-long:
	$(GO) test -count=1 -v -timeout 0 -run '^TestRandomRunsPassTheIndependentChecker$$' ./internal/indepcheck/ -runs $(RUNS)

# The app's font: Ebiten's M+ 1p cut down to the characters the app writes
# (viz/fonts). The result is committed; this remakes it.
FONT_SRC = $(shell $(GO) list -m -f '{{.Dir}}' github.com/hajimehoshi/ebiten/v2)/examples/resources/fonts/mplus-1p-regular.ttf
FONT_UNICODES = U+0020-007E,U+00A0-00FF,U+2010-2027,U+2030-203A,U+2190-2199,U+2212,U+2264,U+2265,U+2713,U+2717,U+25A0-25CF
font:
	@command -v pyftsubset >/dev/null || { echo "make font: pyftsubset is missing; install the Debian package fonttools" >&2; exit 1; }
	pyftsubset "$(FONT_SRC)" --unicodes="$(FONT_UNICODES)" --layout-features='*' --no-hinting --name-IDs='*' \
		--notdef-outline --output-file=viz/fonts/mplus-1p-regular-latin.ttf

clean:
	rm -f web/raftlab.wasm web/raftlab.wasm.gz web/raftlab.wasm.br web/wasm_exec.js
	rm -rf bin artifacts
