#!/usr/bin/env bash
# The browser test: the web client built and served by `foodweb serve` on
# spare ports with a fresh data folder, played by headless Chromium. What
# it needs is installed by wasm/tests/setup.sh (Debian's chromium, Node.js,
# npm's playwright-core as pinned in package-lock.json) and the web build
# by wasm/build.sh; `--prebuilt` skips both when the caller (.ci/run, which
# times each) has just run them. Screenshots and browser-report.json go to
# OUT_DIR (default /var/tmp/foodweb-browser-test).
#
#   wasm/tests/run.sh [--prebuilt] [OUT_DIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-/var/tmp/foodweb-target}"
prebuilt=
if [ "${1:-}" = --prebuilt ]; then prebuilt=1; shift; fi
out="${1:-/var/tmp/foodweb-browser-test}"
mkdir -p "$out"

if [ -z "$prebuilt" ]; then
    wasm/tests/setup.sh
    wasm/build.sh
fi
# The server: the binary `cargo test --workspace` builds (the same profile
# and features, so nothing is compiled twice; a no-op after the tests).
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

# The page's address as the server prints it (its `key=` pins the server's
# key: the page refuses a token sealed by any other), on loopback.
url=$(sed -n 's|^browser players: open http://[^/]*/|http://127.0.0.1:'"$http"'/|p' "$log" | head -n 1)
case "$url" in
    *"ws=$ws"*key=*) ;;
    *) echo "the server printed no page address with its key: $url"; exit 1 ;;
esac
node wasm/tests/browser.mjs "$url" "$out"
