#!/usr/bin/env bash
# The conductor demo (what `make run` becomes): build, initialise a fresh demo workspace
# in a temporary directory (as scripts/run-demo.sh does), mint a demo token, start
# `cmdbridge serve` on 127.0.0.1 and print the URL, the token and sample curl lines.
# It then stays in the foreground until Ctrl-C.
#
#   scripts/serve-demo.sh           interactive: serve until Ctrl-C
#   scripts/serve-demo.sh --check   run the two sample curls, check them, stop, exit
#   SERVE_DEMO_CHECK=1 scripts/serve-demo.sh   the same as --check
set -euo pipefail

check=${SERVE_DEMO_CHECK:-0}
[[ ${1:-} == --check ]] && check=1

root=$(cd "$(dirname "$0")/.." && pwd)
bin="$root/bin"
if [[ ${SERVE_DEMO_NO_BUILD:-0} != 1 ]]; then
  (cd "$root" && go build -o "$bin/" ./cmd/...)
fi
cb="$bin/cmdbridge"

demo=$(mktemp -d "${TMPDIR:-/tmp}/cmdbridge-serve.XXXXXX")
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export DELIVERY_OWNER=demo@example.invalid
(
  cd "$demo"
  git init -q -b main .
  git config user.email "$DELIVERY_OWNER"
  git config user.name "Demo"
  "$cb" --workspace "$demo" call workspace:init --input '{"name":"demo"}' >/dev/null
  git add -A && git commit -qm "chore: demo workspace"
  "$cb" --workspace "$demo" call wu:create --input '{"lane":"General","title":"Add health endpoint","description":"Expose GET /healthz returning build info so the load balancer can probe instances.","acceptance":["GET /healthz returns 200 with version and commit"],"code_paths":["internal/api/health.go"],"exposure":"api"}' >/dev/null
)

token=$("$cb" --workspace "$demo" token mint --subject demo:phone:laptop \
  --tools '*' --read . --write . --ttl 8h)

# The server log lives beside the workspace, never in its work tree.
log="$demo.serve.log"
urlfile=$(mktemp)
if [[ $check != 1 && -t 0 ]]; then
  # Job control: the server gets a process group of its own and, below, the terminal, so
  # Ctrl-C reaches the server alone: make, which would report "Interrupt" and exit 130,
  # never sees it; the server stops cleanly and this script exits 0.
  set -m
fi
"$cb" --workspace "$demo" serve --addr 127.0.0.1:0 >"$urlfile" 2>"$log" &
pid=$!
stop() { kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -f "$urlfile"; }
trap stop EXIT
for _ in $(seq 100); do
  [[ -s $urlfile ]] && break
  kill -0 "$pid" 2>/dev/null || { cat "$log" >&2; exit 1; }
  sleep 0.1
done
url=$(head -n1 "$urlfile")
[[ -n $url ]] || { echo "serve did not print its URL" >&2; cat "$log" >&2; exit 1; }

cat <<MSG
demo workspace: $demo
URL:            $url

Paste these lines into another shell:

  export TOKEN=$token
  curl -s -H "Authorization: Bearer \$TOKEN" $url/tools
  curl -s -H "Authorization: Bearer \$TOKEN" -d '{"id":"WU-1"}' $url/tools/wu:status
MSG

if [[ $check == 1 ]]; then
  # The printed lines, run as printed (with TOKEN exported as the first one says).
  export TOKEN=$token
  tools=$(curl -sS -f -H "Authorization: Bearer $TOKEN" "$url/tools")
  grep -q '"schema_version":2' <<<"$tools" || { echo "GET /tools: unexpected answer" >&2; exit 1; }
  grep -q '"name":"wu:status"' <<<"$tools" || { echo "GET /tools: wu:status missing" >&2; exit 1; }
  status=$(curl -sS -f -H "Authorization: Bearer $TOKEN" -d '{"id":"WU-1"}' "$url/tools/wu:status")
  echo "$status"
  grep -q '"success":true' <<<"$status" || { echo "POST /tools/wu:status failed" >&2; exit 1; }
  echo "check: GET /tools and POST /tools/wu:status OK"
  stop
  trap - EXIT
  rm -rf "$demo"
  exit 0
fi

echo
echo "serving; Ctrl-C stops (log: $log)"
trap - EXIT
finish() {
  rm -f "$urlfile"
  echo
  echo "stopped. The workspace is kept at $demo; remove it when done."
  exit 0
}
trap 'kill -TERM "$pid" 2>/dev/null || true' INT TERM
if [[ $- == *m* ]]; then
  fg %1 >/dev/null || true # the terminal's Ctrl-C now goes to the server alone
fi
wait "$pid" 2>/dev/null || true
finish
