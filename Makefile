# cmdbridge — every target installs what it needs first (see README).
GO      ?= go
BIN     ?= bin
GOFLAGS ?=
export GOFLAGS
# Race-built test binaries (and the subprocesses tests start from them) skip the race
# runtime's 1 s sleep at exit; reports and the failing exit status are unchanged.
GORACE  ?= atexit_sleep_ms=0
export GORACE

.PHONY: all deps build run demo test parity redteam demo-check bench lint generate clean

all: build

## deps: Go modules, and bubblewrap, git and chromium through apt-get when missing and root;
## with node present, the pinned TypeScript MCP SDK the MCP tests drive (npm ci).
deps:
	@$(GO) mod download
	@scripts/install-deps.sh

## build: the three binaries into ./bin
build: deps
	$(GO) build -o $(BIN)/ ./cmd/...

## run: the main job (see README): cmdbridge serve on 127.0.0.1 over a fresh demo
## workspace, with a minted token and sample curls; Ctrl-C stops it.
run: build
	@SERVE_DEMO_NO_BUILD=1 scripts/serve-demo.sh

## demo: the command-line lifecycle demo (create → claim → … → done, then evidence verify)
demo: build
	@scripts/run-demo.sh

## demo-check: make run's server, exercised by its own curls, then stopped
demo-check: build
	@SERVE_DEMO_NO_BUILD=1 scripts/serve-demo.sh --check

## test: lint, the whole suite under the race detector (the parity package runs every
## parity script on three lanes, cold and with the warm index, and holds the ratchet), the
## demo check. `make parity` is the same scripts through the CLI, recording the results.
test: deps lint
	$(GO) test -race -count=1 -timeout 20m ./...
	$(MAKE) --no-print-directory demo-check

## redteam: the attack tests (TestRedTeam…): keys out of reach of workspace code, process
## trees that end with their call
redteam: deps
	$(GO) test -count=1 -run RedTeam ./...

## parity: every three-lane parity script (adapter, subprocess, native); fails on any difference
parity: deps
	$(GO) run ./cmd/cmdbridge parity $(if $(PARITY_JUNIT),--junit $(PARITY_JUNIT))

## bench: benchmarks, 6 runs each, summarised with benchstat when it is installed
bench: deps
	$(GO) test -run '^$$' -bench . -benchmem -count 6 -timeout 30m ./... | tee bench.txt
	@if command -v benchstat >/dev/null 2>&1; then benchstat bench.txt; \
	 else echo "(install benchstat with: go install golang.org/x/perf/cmd/benchstat@latest)"; fi
	@scripts/bench-ratio.sh bench.txt

## lint: gofmt check, go vet, staticcheck (pinned, fetched through the module proxy) and
## bridgecheck on the native tools
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2
lint:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	 if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...
	$(GO) run ./cmd/bridgecheck ./nativetools/...

## generate: regenerate generated files (docs/tools.md, …)
generate:
	$(GO) generate ./...

clean:
	rm -rf $(BIN) bench.txt
