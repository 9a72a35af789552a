#!/usr/bin/env bash
# What the browser test needs besides Rust, installed if missing:
#   - Chromium: Debian's `chromium` package (/usr/bin/chromium);
#   - Node.js 18 or newer with npm: Debian's `nodejs` and `npm` packages;
#   - playwright-core, at the version package-lock.json pins (npm ci).
# Runs as root or through sudo; a second run changes nothing.
set -euo pipefail
cd "$(dirname "$0")"

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
if ! command -v node >/dev/null || ! command -v npm >/dev/null \
    || [ "$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)" -lt 18 ]; then
    need+=(nodejs npm)
fi
if [ ${#need[@]} -gt 0 ]; then
    echo "installing ${need[*]} (apt)"
    as_root apt-get update -q
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${need[@]}"
fi
if [ ! -d node_modules/playwright-core ] \
    || ! cmp -s package-lock.json node_modules/.package-lock.json 2>/dev/null; then
    npm ci --no-audit --no-fund --loglevel=error
fi
echo "chromium: $(/usr/bin/chromium --version 2>/dev/null || echo missing)"
echo "node: $(node --version), playwright-core: $(node -p 'require("./node_modules/playwright-core/package.json").version')"
