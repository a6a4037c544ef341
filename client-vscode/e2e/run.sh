#!/usr/bin/env bash
# The extension end to end in real VS Code: installs code-server, Node 24 and playwright-core
# (install.sh; cached), packages client-vscode/agentls.vsix (`npm run package`) unless
# AGENTLS_E2E_VSIX names one, installs it into code-server, then runs every scenario in
# e2e/tests/ with node's test runner, one at a time (each starts its own code-server,
# Chromium, model server and language server). Extra arguments go to `node --test`
# (e.g. --test-name-pattern=Accept). Failures leave screenshots and logs in e2e/artifacts/.
# Concurrent runs on one machine wait for each other (a lock in the cache folder).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
CLIENT=$(cd "$HERE/.." && pwd)
REPO=$(cd "$CLIENT/.." && pwd)
CACHE=${AGENTLS_E2E_CACHE:-${HOME}/.cache/agentls-e2e}
export AGENTLS_E2E_CACHE=$CACHE
start=$(date +%s)

# One run at a time on a machine: runs share the cache and e2e/.state (a second run would
# delete the first one's workspaces), and each scenario already keeps two cores busy.
mkdir -p "$CACHE"
exec 9>"$CACHE/run.lock"
if ! flock -n 9; then
  echo "e2e: another e2e run holds $CACHE/run.lock; waiting for it"
  flock 9
fi

"$HERE/install.sh" 9>&-
export PATH="$CACHE/node24/node_modules/node/bin:$PATH"

if [ ! -x "$REPO/.venv/bin/agentls" ]; then
  echo "e2e: $REPO/.venv/bin/agentls is missing: run ./scripts/test (it creates .venv) first" >&2
  exit 1
fi
if [ ! -x "${AGENTLS_E2E_CHROMIUM:-/usr/bin/chromium}" ]; then
  echo "e2e: no Chromium at ${AGENTLS_E2E_CHROMIUM:-/usr/bin/chromium} (apt-get install chromium)" >&2
  exit 1
fi

VSIX=${AGENTLS_E2E_VSIX:-}
if [ -z "$VSIX" ]; then
  echo "e2e: packaging the extension (npm run package)"
  (cd "$CLIENT" && { [ node_modules/.package-lock.json -nt package-lock.json ] || npm ci --no-audit --no-fund; } && npm run package)
  VSIX=$CLIENT/agentls.vsix
fi
[ -f "$VSIX" ] || { echo "e2e: no .vsix at $VSIX" >&2; exit 1; }

rm -rf "$HERE/.state" "$HERE/artifacts"
mkdir -p "$HERE/.state/home" "$HERE/artifacts"
XDG_CONFIG_HOME="$HERE/.state/home" XDG_DATA_HOME="$HERE/.state/home" TMPDIR="$HERE/.state/home" \
  "$CACHE/cs/node_modules/.bin/code-server" --install-extension "$VSIX" --force \
  --extensions-dir "$HERE/.state/extensions" --user-data-dir "$HERE/.state/install-user-data" >/dev/null 9>&-
export AGENTLS_E2E_VSIX_PATH=$VSIX
echo "e2e: setup in $(($(date +%s) - start)) s; running the scenarios"

cd "$HERE"
set +e
node --test --test-concurrency=1 --test-reporter=spec "$@" "tests/**/*.test.mjs" 9>&- # the lock stays with this shell
status=$?
set -e
echo "e2e: finished in $(($(date +%s) - start)) s (exit $status)"
if [ "$status" -ne 0 ] && [ -n "$(ls -A "$HERE/artifacts" 2>/dev/null)" ]; then
  echo "e2e: screenshots and logs of the failed scenarios: $HERE/artifacts/" >&2
fi
exit "$status"
