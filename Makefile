# cmdbridge — every target installs what it needs first (see README).
GO      ?= go
BIN     ?= bin
# -trimpath: nothing built records this checkout's directory, so the build cache serves a
# fresh clone (or a second worktree) the packages it compiled for another: a clean clone's
# `make test` compiles nothing that did not change (164 CPU-s of test builds fall to 65).
GOFLAGS ?= -trimpath
export GOFLAGS
# Race-built test binaries (and the subprocesses tests start from them) skip the race
# runtime's 1 s sleep at exit; reports and the failing exit status are unchanged.
GORACE  ?= atexit_sleep_ms=0
export GORACE

.PHONY: all deps deps-serve build run demo test redteam parity demo-check bench lint lint-go generate clean

all: build

## deps: what `make test` needs: Go modules; git, bubblewrap and chromium through apt-get
## when missing and root; with node present, the pinned TypeScript MCP SDK and MCP
## Inspector the MCP tests drive (npm ci); the pinned lint tools, built once into bin/tools.
deps:
	@$(GO) mod download
	@scripts/install-deps.sh test

## deps-serve: what `make build` and `make run` need: Go modules and git.
deps-serve:
	@$(GO) mod download
	@scripts/install-deps.sh serve

## build: the three binaries into ./bin
build: deps-serve
	$(GO) build -o $(BIN)/ ./cmd/...

## run: the main job (see README): cmdbridge serve on 127.0.0.1 over a fresh demo
## workspace, with a minted token and sample curls; Ctrl-C stops it.
run: deps-serve
	$(GO) build -o $(BIN)/ ./cmd/cmdbridge ./cmd/delivery
	@SERVE_DEMO_NO_BUILD=1 scripts/serve-demo.sh

## demo: the command-line lifecycle demo (create → claim → … → done, then evidence verify)
demo: build
	@scripts/run-demo.sh

## demo-check: make run's server, exercised by its own curls, then stopped
demo-check: build
	@SERVE_DEMO_NO_BUILD=1 scripts/serve-demo.sh --check

## test: lint (less bridgecheck on the native tools, which cmd/bridgecheck's
## TestStandaloneSaysWhenNothingWasChecked runs), then every package once (scripts/test.sh:
## the race detector on the packages where concurrency lives, the rest without it, side by
## side; no fixed timeout; the slowest packages reported), then the demo check. The
## integration package runs every parity script of the corpus on four lanes (subprocess,
## adapter, native cold and warm) and holds the ratchet; the TestRedTeam* tests are the attacks of `make redteam`.
## Budget: 5 minutes on 2 cores.
test: deps lint-go
	@scripts/test.sh
	$(MAKE) --no-print-directory demo-check

## redteam: every attack on governance as a test (TestRedTeam*: option injection, keys read
## by spawned code, forged or rewound evidence, cross-workspace NATS, crashes mid-write,
## idle and slow connections, bad tokens); each fails without its fix. Part of `make test`.
redteam: deps
	$(GO) test -race -count=1 -run RedTeam ./...

## parity: every three-lane parity script (adapter, subprocess, native); fails on any difference
parity: deps-serve
	$(GO) run ./cmd/cmdbridge parity $(if $(PARITY_JUNIT),--junit $(PARITY_JUNIT))

## bench: benchmarks, 6 runs each, summarised with benchstat when it is installed
bench: deps-serve
	$(GO) test -run '^$$' -bench . -benchmem -count 6 -timeout 30m ./... | tee bench.txt
	@if command -v benchstat >/dev/null 2>&1; then benchstat bench.txt; \
	 else echo "(install benchstat with: go install golang.org/x/perf/cmd/benchstat@latest)"; fi
	@scripts/bench-ratio.sh bench.txt

## lint: gofmt check, go vet, staticcheck (pinned; built once by `make deps`) and
## bridgecheck on the native tools
lint: lint-go
	$(GO) run ./cmd/bridgecheck ./nativetools/...

## lint-go: gofmt check, go vet and staticcheck
lint-go: deps
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	 if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(BIN)/tools/staticcheck ./...

## generate: regenerate generated files (docs/tools.md, …)
generate:
	$(GO) generate ./...

clean:
	rm -rf $(BIN) bench.txt
