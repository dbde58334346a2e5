# cmdbridge — every target installs what it needs first (see README).
GO      ?= go
BIN     ?= bin
GOFLAGS ?=
export GOFLAGS

.PHONY: all deps build run test test-short bench lint generate clean

all: build

## deps: Go modules, and bubblewrap through apt-get when it is missing and we are root.
deps:
	@$(GO) mod download
	@scripts/install-deps.sh

## build: the three binaries into ./bin
build: deps
	$(GO) build -o $(BIN)/ ./cmd/...

## run: the main job (see README)
run: build
	@scripts/run-demo.sh

## test: lint, then the whole suite under the race detector
test: deps lint
	$(GO) test -race -count=1 -timeout 20m ./...

## bench: benchmarks, 6 runs each, summarised with benchstat when it is installed
bench: deps
	$(GO) test -run '^$$' -bench . -benchmem -count 6 -timeout 30m ./... | tee bench.txt
	@if command -v benchstat >/dev/null 2>&1; then benchstat bench.txt; \
	 else echo "(install benchstat with: go install golang.org/x/perf/cmd/benchstat@latest)"; fi

## lint: gofmt check and go vet
lint:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	 if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

## generate: regenerate generated files (docs/tools.md, …)
generate:
	$(GO) generate ./...

clean:
	rm -rf $(BIN) bench.txt
