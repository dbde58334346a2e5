#!/usr/bin/env bash
# The main job, as `make run` shows it: a fresh demo workspace in a temporary directory,
# with git, and a short work-unit lifecycle driven through the kernel with
# `cmdbridge call` (adapter lane). Each tool.Output is printed as it comes back.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
bin="$root/bin"
demo=$(mktemp -d "${TMPDIR:-/tmp}/cmdbridge-demo.XXXXXX")
cd "$demo"

export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export DELIVERY_OWNER=demo@example.invalid

step() {
  local tool=$1 input=$2
  printf '\n$ cmdbridge call %s --input %s\n' "$tool" "$input"
  "$bin/cmdbridge" --workspace "$demo" call "$tool" --input "$input"
}

echo "demo workspace: $demo"
git init -q -b main .
git config user.email "$DELIVERY_OWNER"
git config user.name "Demo"
step workspace:init '{"name":"demo"}'
# wu:prep and wu:done run the workspace's gates: workspace code, which the default policy
# asks before (non-interactive: APPROVAL_REQUIRED) and which runs under bubblewrap with
# cmdbridge's keys hidden. This demo's operator allows them, as the refusal's snippet says.
mkdir -p .cmdbridge
cat > .cmdbridge/config.yaml <<'YAML'
policy:
  - {name: allow-wu-prep, tool: "wu:prep", priority: -999, decision: allow}
  - {name: allow-wu-done, tool: "wu:done", priority: -999, decision: allow}
  - {name: default-runs-code-ask, runs_code: true, priority: -1000, decision: ask}
  - {name: default-destructive-ask, destructive: true, priority: -1000, decision: ask}
  - {name: default-allow, tool: "*", priority: -1001, decision: allow}
YAML
git add -A && git commit -qm "chore: demo workspace"

step wu:create '{"lane":"General","title":"Add health endpoint","description":"Expose GET /healthz returning build info so the load balancer can probe instances.","acceptance":["GET /healthz returns 200 with version and commit"],"code_paths":["internal/api/health.go"],"exposure":"api"}'
step wu:claim '{"id":"WU-1","lane":"General"}'
step wu:status '{"id":"WU-1"}'
step wu:block '{"id":"WU-1","reason":"waiting for the API review"}'
step wu:unblock '{"id":"WU-1","reason":"review done"}'
step wu:prep '{"id":"WU-1"}'
step wu:done '{"id":"WU-1"}'

printf '\n$ git log --oneline\n'
git log --oneline
printf '\n$ cmdbridge evidence verify\n'
"$bin/cmdbridge" --workspace "$demo" evidence verify
echo
echo "The workspace is kept at $demo; remove it when done."
