#!/usr/bin/env bash
# The Go half of `make test`: every package of the module, once.
#
# The race detector runs where concurrency lives: a package whose own (non-test) code
# imports sync, sync/atomic, os/signal or golang.org/x/sync runs under -race; every other
# package (the corpus's commands and native tools, the analyzers, codegen, the outside
# module tests, which build and run programs as separate processes) runs without it, at a
# fraction of the cost. The rule is computed from `go list` on every run, so a package
# that starts sharing state across goroutines moves into the race group by itself.
#
# Exceptions, by test name (the norace table below), run without -race while the rest
# of their package runs under it. In the integration package: the corpus's parity script
# suite (TestParityScripts) runs whole programs on four lanes and compares what they
# leave, spread over processes (integration/parity_shard_test.go), and
# TestReadOnlyToolsWriteNothing calls every read-only tool of the corpus on every lane,
# one call at a time, and compares the workspace byte for byte (25 -> 14 CPU-s); the
# concurrency they pass through (the adapter's costume, the warm index's watcher, the
# kernel, parity's runner) is raced by its own packages' tests. In bridgecheck: the three
# tests that load the most packages (11 -> 4 CPU-s); the loader's concurrency (a
# goroutine per package, type-checked as its imports finish) is the same code on every
# load, and the package's other tests run it under -race.
#
# No fixed wall-clock timeout (-timeout 0): a busy machine is slow, not broken; every
# test bounds itself by what it checks. The two groups run side by side, and the slowest
# packages are reported at the end, against the budget the README states.
#
#   scripts/test.sh [go test flags…]     e.g. scripts/test.sh -run TestFoo
set -uo pipefail
cd "$(dirname "$0")/.."

GO=${GO:-go}
race=() plain=()
# integration has no code of its own: its tests (two surfaces writing at once, the MCP
# server on the whole corpus, the kernel's red-team attacks on the corpus's tools) came
# from packages of the race group and stay under -race, but for the norace table's.
while read -r path imports; do
  if [[ " $imports " =~ \ (sync|sync/atomic|os/signal|golang\.org/x/sync/[^\ ]*)\  || $path == */integration ]]; then
    race+=("$path")
  else
    plain+=("$path")
  fi
done < <($GO list -f '{{.ImportPath}}{{range .Imports}} {{.}}{{end}}' ./...)

out=$(mktemp -d)
cleanup=("$out")
trap 'rm -rf "${cleanup[@]}"' EXIT

# Temporary files go to a tmpfs when the machine has one with room and allows programs to
# run from it (CMDBRIDGE_TEST_TMPDIR names another place; empty keeps TMPDIR). The tests
# make and delete tens of thousands of small files (workspace copies per lane, git
# repositories, test binaries); on a disk file system that was most of their time (the
# lane test of commands/all: 21 s, 15 s of it in the kernel, against 9.5 s on tmpfs).
if [[ -z ${CMDBRIDGE_TEST_TMPDIR+set} ]]; then
  CMDBRIDGE_TEST_TMPDIR=
  if [[ -d /dev/shm && -w /dev/shm ]]; then
    free_kb=$(df -Pk /dev/shm 2>/dev/null | awk 'NR == 2 { print $4 }')
    if [[ ${free_kb:-0} -ge $((4 * 1024 * 1024)) ]]; then
      CMDBRIDGE_TEST_TMPDIR=/dev/shm
    fi
  fi
fi
if [[ -n $CMDBRIDGE_TEST_TMPDIR ]]; then
  tmp=$(mktemp -d "$CMDBRIDGE_TEST_TMPDIR/cmdbridge-test.XXXXXX")
  cleanup+=("$tmp")
  printf '#!/bin/sh\nexit 0\n' >"$tmp/probe" && chmod +x "$tmp/probe"
  if "$tmp/probe" 2>/dev/null; then
    export TMPDIR=$tmp
    echo "== temporary files in $TMPDIR (CMDBRIDGE_TEST_TMPDIR= keeps the default)"
  else
    echo "== $CMDBRIDGE_TEST_TMPDIR does not let programs run (noexec): temporary files stay in ${TMPDIR:-/tmp}"
  fi
  rm -f "$tmp/probe"
fi
# Git's automatic maintenance is off for every git the tests start (unless a test sets
# its own GIT_CONFIG_COUNT): after each commit git otherwise starts `git maintenance run
# --auto`, which never has anything to do in a test's small repository and costs a
# process every time. Nothing the tests check depends on it.
if [[ -z ${GIT_CONFIG_COUNT:-} ]]; then
  export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=maintenance.auto GIT_CONFIG_VALUE_0=false
fi
# The outside modules under testdata are built once per run and shared by the test
# binaries that drive them (internal/outsidetest), not once per package.
if [[ -z ${CMDBRIDGE_OUTSIDE_CACHE:-} ]]; then
  CMDBRIDGE_OUTSIDE_CACHE=$(mktemp -d)
  cleanup+=("$CMDBRIDGE_OUTSIDE_CACHE")
  export CMDBRIDGE_OUTSIDE_CACHE
fi
start=$(date +%s)

# -vet=off: `make test` runs `go vet ./...` (all of its analyzers) in lint first; the
# subset go test would run again is the same work twice. -ldflags=-w: the test binaries
# are linked without DWARF (nothing here debugs them; panics and the race detector
# still name files and lines), which halves the link of a race-built one (6.7 -> 3.1
# CPU-s for surface/cli's) and takes a third off the others.
norace=(
  ./integration:TestParityScripts ./integration:TestReadOnlyToolsWriteNothing
  ./bridgecheck:TestAllFamilies ./bridgecheck:TestLegacyFlagOverridesDetection ./bridgecheck:TestTiersScopeAndErrors
)
names=() pkgs=()
for entry in "${norace[@]}"; do
  pkg=${entry%%:*} name=${entry#*:}
  names+=("$name")
  [[ " ${pkgs[*]} " == *" $pkg "* ]] || pkgs+=("$pkg")
done
suites="^($(IFS='|'; echo "${names[*]}"))\$"
# -run and -skip match names, not packages: a name of the table must not also name a
# test of another package of the race group, which would then run without -race (a
# package of the table) or nowhere (any other).
for name in "${names[@]}"; do
  for dir in $(grep -rl --include='*_test.go' "^func $name(" . | xargs -r -n1 dirname | sort -u); do
    if [[ " ${norace[*]} " != *" $dir:$name "* && " ${race[*]} " == *" github.com/cmdbridge/cmdbridge${dir#.} "* ]]; then
      echo "scripts/test.sh: $name (norace table) is also a test of $dir, which runs under -race: rename one" >&2
      exit 1
    fi
  done
done
flags=(-vet=off -ldflags=-w -count=1 -timeout 0)
$GO test "${flags[@]}" "$@" "${plain[@]}" >"$out/plain" 2>&1 &
plain_pid=$!
$GO test "${flags[@]}" -run "$suites" "$@" "${pkgs[@]}" >"$out/suites" 2>&1 &
suites_pid=$!
echo "== go test -race: ${#race[@]} packages where concurrency lives (the other ${#plain[@]}, and ${#names[@]} tests of ${pkgs[*]}, run without -race alongside)"
$GO test "${flags[@]}" -race -skip "$suites" "$@" "${race[@]}" 2>&1 | tee "$out/race"
race_status=${PIPESTATUS[0]}
wait "$plain_pid"
plain_status=$?
wait "$suites_pid"
suites_status=$?
echo "== go test (no -race): ${#plain[@]} packages"
cat "$out/plain"
echo "== go test (no -race): ${names[*]}"
cat "$out/suites"

elapsed=$(($(date +%s) - start))
echo "== slowest packages (wall time; the whole go test run took ${elapsed}s):"
cat "$out/race" "$out/plain" "$out/suites" | awk -F'\t' '$1 ~ /^(ok|FAIL) *$/ && $3 ~ /s$/ { t = $3; sub(/s$/, "", t); printf "%8.1fs  %s\n", t, $2 }' |
  sort -rn | head -5

if [[ $race_status -ne 0 || $plain_status -ne 0 || $suites_status -ne 0 ]]; then
  echo "FAIL: go test failed (race group status $race_status, other packages $plain_status, the tests run without -race $suites_status)" >&2
  exit 1
fi
