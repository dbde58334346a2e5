#!/usr/bin/env bash
# Installs the system packages cmdbridge needs: bubblewrap (the sandbox lane) and chromium
# (the status page's headless-browser test). Go modules are fetched by `go mod download` in
# the Makefile. When node is installed, it also installs testdata/mcpclient's pinned
# @modelcontextprotocol/sdk (npm ci, from package-lock.json), the official TypeScript
# client the MCP tests drive. Safe to run repeatedly: silent when everything is already
# installed.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
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

need=()
command -v bwrap >/dev/null 2>&1 || need+=(bubblewrap)
command -v git >/dev/null 2>&1 || need+=(git)
command -v chromium >/dev/null 2>&1 || need+=(chromium)

if [ ${#need[@]} -eq 0 ]; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "install-deps: missing ${need[*]}; cannot install (needs root and apt-get)." >&2
  echo "install-deps: install them by hand; sandboxed tools are refused until bwrap exists," >&2
  echo "install-deps: and the status page test fails until chromium exists." >&2
  exit 0
fi
echo "install-deps: installing ${need[*]} with apt-get" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
