#!/usr/bin/env bash
# The browser test, with everything it needs: Debian's chromium, npm's
# playwright-core (pinned in package-lock.json), the web build (wasm/build.sh
# installs the wasm target and the matching wasm-bindgen CLI), and a
# `foodweb serve` on spare ports with a fresh data folder. Screenshots and
# browser-report.json go to $1 (default /var/tmp/foodweb-browser-test).
#
#   wasm/tests/run.sh [OUT_DIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-/var/tmp/foodweb-target}"
out="${1:-/var/tmp/foodweb-browser-test}"
mkdir -p "$out"

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
if [ ! -x /usr/bin/chromium ]; then
    as_root apt-get update -q
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends chromium
fi
(cd wasm/tests && npm ci --no-audit --no-fund --loglevel=error)

wasm/build.sh
# The server: the binary `cargo test --workspace` builds (the same feature
# set, so nothing is compiled twice).
cargo test --workspace --no-run -q 2>&1 | tail -n 3

# Spare ports, so a LAN game on the defaults can go on beside the test.
http=18080 udp=15410 ws=15411
data=$(mktemp -d)
log="$out/server.log"
"$CARGO_TARGET_DIR/debug/foodweb" serve --name "Browser test" --port "$udp" --ws-port "$ws" \
    --http-port "$http" --web-dir wasm/dist --data "$data" --bot-delay-ms 400 >"$log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true; rm -rf "$data"' EXIT
for _ in $(seq 100); do
    grep -q "browser players: open" "$log" && break
    kill -0 $server 2>/dev/null || { cat "$log"; echo "the server stopped"; exit 1; }
    sleep 0.2
done
cat "$log"

# Sizes of what a browser downloads, raw and gzip-compressed.
for f in wasm/dist/foodweb_bg.wasm wasm/dist/foodweb.js wasm/dist/assets/fonts/*; do
    printf '%-48s %10d bytes, gzip %10d\n' "$f" "$(stat -c %s "$f")" "$(gzip -9c "$f" | wc -c)"
done | tee "$out/sizes.txt"

node wasm/tests/browser.mjs "http://127.0.0.1:$http/?ws=$ws" "$out"
