#!/usr/bin/env bash
# Installs the system packages cmdbridge needs: bubblewrap (the sandbox lane) and chromium
# (the status page's headless-browser test). Go modules are fetched by `go mod download` in
# the Makefile. Safe to run repeatedly: silent when everything is already installed.
set -euo pipefail

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
