#!/usr/bin/env bash
# The party test (issue 68), a step of CI: three phone pages and a
# headless client at one Wanning Beast Chess table served by `foodweb
# serve`; names typed on the phones, one phone reloads mid-game, another
# is closed longer than the stand-in's delay and opened again, and each
# must be back in its own seat by itself; the game played to its end and
# its replay opened over the wire (wasm/tests/party.mjs). Needs the web
# build (wasm/build.sh) and what wasm/tests/setup.sh installs. Screenshots and party-report.json go to
# OUT_DIR (default /var/tmp/foodweb-party).
#
# `--long`: the longer party, outside CI: Gene Survival, all four seats on
# phone pages, two reloads, a whole game (PARTY_LONG in party.mjs;
# PARTY_PAGES=3 seats a headless client in the fourth, for a machine that
# takes three pages at once).
#
#   tools/party.sh [--long] [OUT_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-/var/tmp/foodweb-target}"
if [ "${1:-}" = --long ]; then export PARTY_LONG=1; shift; fi
out="${1:-/var/tmp/foodweb-party}"
mkdir -p "$out"
rm -f "$out"/*.png "$out"/party-report.json
cargo test --workspace --no-run -q 2>&1 | tail -n 3
bin="$CARGO_TARGET_DIR/debug/foodweb"

# The stand-in takes an empty seat after this long (60 s at a real party):
# the closed page stays away longer than that.
takeover=5
http=18180 udp=15510 ws=15511
data=$(mktemp -d)
log="$out/server.log"
"$bin" serve --name "Party test" --port "$udp" --ws-port "$ws" --http-port "$http" \
    --web-dir wasm/dist --data "$data" --bot-delay-ms 400 --takeover-secs "$takeover" >"$log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true; rm -rf "$data"' EXIT
for _ in $(seq 100); do
    grep -q "browser players: open" "$log" && break
    kill -0 $server 2>/dev/null || { cat "$log"; echo "the server stopped"; exit 1; }
    sleep 0.2
done
url=$(sed -n 's|^browser players: open http://[^/]*/|http://127.0.0.1:'"$http"'/|p' "$log" | head -n 1)
key=$(sed -n 's|.*[?&]key=\([0-9a-fA-F]*\).*|\1|p' <<<"$url")
[ -n "$key" ] || { echo "the server printed no page address with its key: $url"; exit 1; }

node wasm/tests/party.mjs "$url" "$out" "$takeover" "$bin" "$udp"
