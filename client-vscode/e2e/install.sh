#!/usr/bin/env bash
# Installs what the end-to-end tests drive, from the npm registry alone (no other host is
# contacted: nodejs.org is not reachable on these machines, nor behind many proxies), into a
# cache folder ($AGENTLS_E2E_CACHE, default ~/.cache/agentls-e2e) and e2e/node_modules:
#   node24/  Node 24 (npm package `node`, whose install step takes the prebuilt
#            node-<os>-<arch> package from the registry: the binary and its C++ headers)
#   cs/      code-server (real VS Code; its engines need Node 24). Its native modules are
#            compiled by node-gyp against the headers of that same package
#            (npm_config_nodedir), never downloaded from nodejs.org; no ~/.npmrc is needed
#   e2e/node_modules  playwright-core (drives the system's /usr/bin/chromium; no browser download)
# Idempotent: a pinned version already installed there is kept. Needs npm, a C/C++ toolchain,
# python3 and libkrb5-dev (code-server's native modules fall back to node-gyp builds), and
# Debian's `chromium` to run the tests (.ci/run installs them).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
NODE_VERSION=24.21.0
CODE_SERVER_VERSION=4.139.1
CACHE=${AGENTLS_E2E_CACHE:-${HOME}/.cache/agentls-e2e}
mkdir -p "$CACHE/node24" "$CACHE/cs" "$CACHE/tmp"
start=$(date +%s)

node_bin="$CACHE/node24/node_modules/node/bin/node"
if [ -x "$node_bin" ] && [ "$("$node_bin" --version)" = "v$NODE_VERSION" ]; then
  echo "e2e install: node $NODE_VERSION already in $CACHE/node24"
else
  echo "e2e install: node $NODE_VERSION -> $CACHE/node24"
  (cd "$CACHE/node24" && { [ -f package.json ] || npm init -y >/dev/null; } &&
    npm install --no-audit --no-fund "node@$NODE_VERSION" >"$CACHE/node24.log" 2>&1) ||
    { tail -30 "$CACHE/node24.log" >&2; exit 1; }
fi
export PATH="$CACHE/node24/node_modules/node/bin:$PATH"
# node-gyp's headers: the prebuilt package ships include/node (common.gypi, node.h, …).
# Without nodedir, node-gyp downloads node-v$NODE_VERSION-headers.tar.gz from nodejs.org.
nodedir=$(dirname "$(dirname "$(dirname "$(find "$CACHE/node24/node_modules" -path '*/include/node/common.gypi' -print -quit)")")")
if [ ! -f "$nodedir/include/node/node_version.h" ]; then
  echo "e2e install: the node package in $CACHE/node24 has no C++ headers (include/node)" >&2
  exit 1
fi
export npm_config_nodedir="$nodedir"

cs_pkg="$CACHE/cs/node_modules/code-server/package.json"
installed=$(node -p "try { require('$cs_pkg').version } catch { '' }")
if [ "$installed" = "$CODE_SERVER_VERSION" ] && [ -x "$CACHE/cs/node_modules/.bin/code-server" ]; then
  echo "e2e install: code-server $CODE_SERVER_VERSION already in $CACHE/cs"
else
  echo "e2e install: code-server $CODE_SERVER_VERSION -> $CACHE/cs (a few minutes: native modules build)"
  # npm_config_yes: node-pty's post-install runs `npx node-gyp` with no TTY to confirm.
  # npm_config_unsafe_perm: code-server's postinstall refuses to run as root without it.
  (cd "$CACHE/cs" && { [ -f package.json ] || npm init -y >/dev/null; } &&
    TMPDIR="$CACHE/tmp" npm_config_yes=true npm_config_unsafe_perm=true \
      npm install --no-audit --no-fund --foreground-scripts "code-server@$CODE_SERVER_VERSION" \
      >"$CACHE/cs-install.log" 2>&1) ||
    { tail -40 "$CACHE/cs-install.log" >&2; exit 1; }
fi
XDG_CONFIG_HOME="$CACHE/tmp" XDG_DATA_HOME="$CACHE/tmp" "$CACHE/cs/node_modules/.bin/code-server" --version | grep -E "^[0-9]"

if [ -f "$HERE/node_modules/playwright-core/package.json" ] &&
  [ "$HERE/node_modules/playwright-core/package.json" -nt "$HERE/package-lock.json" ]; then
  echo "e2e install: playwright-core already in e2e/node_modules"
else
  (cd "$HERE" && npm ci --no-audit --no-fund >/dev/null)
fi
echo "e2e install: done in $(($(date +%s) - start)) s"
