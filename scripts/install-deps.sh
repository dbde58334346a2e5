#!/usr/bin/env bash
# Installs the system packages cmdbridge needs, for one purpose:
#
#   scripts/install-deps.sh serve   git: what `make run` and `make build` need
#   scripts/install-deps.sh test    git, bubblewrap (the sandbox lane), chromium (the status
#                                   page's headless-browser test), the pinned
#                                   @modelcontextprotocol/sdk of
#                                   testdata/mcpclient (npm ci, when node is installed),
#                                   and the pinned lint tools (go install into bin/tools)
#
# Go modules are fetched by `go mod download` in the Makefile. Safe to run repeatedly:
# silent when everything is already installed.
set -euo pipefail

mode=${1:-test}
case $mode in serve | test) ;; *) echo "usage: $0 serve|test" >&2; exit 2 ;; esac

root="$(cd "$(dirname "$0")/.." && pwd)"

need=()
command -v git >/dev/null 2>&1 || need+=(git)
if [[ $mode == test ]]; then
  command -v bwrap >/dev/null 2>&1 || need+=(bubblewrap)
  command -v chromium >/dev/null 2>&1 || need+=(chromium)
fi
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "install-deps: missing ${need[*]}; cannot install (needs root and apt-get)." >&2
    echo "install-deps: install them by hand; sandboxed tools are refused until bwrap exists," >&2
    echo "install-deps: and the status page test fails until chromium exists." >&2
  else
    echo "install-deps: installing ${need[*]} with apt-get" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  fi
fi

[[ $mode == test ]] || exit 0

mcpclient="$root/testdata/mcpclient"
if command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then
  # Reinstalled only when the lock file is newer than the installed tree.
  if [ ! -f "$mcpclient/node_modules/.package-lock.json" ] ||
     [ "$mcpclient/package-lock.json" -nt "$mcpclient/node_modules/.package-lock.json" ]; then
    echo "install-deps: npm ci in testdata/mcpclient (the TypeScript MCP client of the tests)" >&2
    npm ci --prefix "$mcpclient" --no-audit --no-fund --loglevel=error >/dev/null
  fi
else
  echo "install-deps: node/npm not found; the TypeScript MCP client test will skip." >&2
fi

# Lint tools, built once at their pinned versions (not `go run`-built on every lint).
tools="$root/bin/tools"
staticcheck_version=${STATICCHECK_VERSION:-v0.8.2}
stamp="$tools/.staticcheck-$staticcheck_version"
if [ ! -x "$tools/staticcheck" ] || [ ! -f "$stamp" ]; then
  echo "install-deps: go install staticcheck@$staticcheck_version into bin/tools" >&2
  mkdir -p "$tools"
  GOBIN="$tools" go install "honnef.co/go/tools/cmd/staticcheck@$staticcheck_version"
  rm -f "$tools"/.staticcheck-*
  touch "$stamp"
fi
