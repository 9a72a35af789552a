#!/usr/bin/env bash
# The LAN latency run of docs/LAN.md ("Latency"): a `foodweb serve` on spare
# ports, its idle CPU for 20 s, then three headless clients (two over UDP,
# one over WebSocket) playing one Forest Showdown game; prints each
# client's p50/p99 from action to view, and the server's own report.
#
#   tools/lan-latency.sh BIN OUT_DIR [UDP_PORT] [--server-report]
#
# BIN is a `foodweb` binary (compare two builds by running each).
# DATA=DIR puts the server's tables there (default OUT_DIR/data);
# SERVE_ARGS="..." adds to the server's arguments (e.g. --journal-sync
# before-answer).
set -euo pipefail
BIN=$1; OUT=$2; PORT=${3:-25410}; REPORT=${4:-}
WS=$((PORT + 1))
rm -rf "$OUT"; mkdir -p "$OUT"
DATA=${DATA:-$OUT/data}; rm -rf "$DATA"; mkdir -p "$DATA"
EXTRA=()
[ -n "$REPORT" ] && EXTRA=(--latency-report "$OUT/server.json")
# shellcheck disable=SC2086
"$BIN" serve --port "$PORT" --ws-port "$WS" --data "$DATA" --bot-delay-ms 0 "${EXTRA[@]}" ${SERVE_ARGS:-} \
    >"$OUT/serve.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
sleep 3
ticks() { awk '{print $14 + $15}' "/proc/$server/stat"; }
a=$(ticks); sleep 20; b=$(ticks)
echo "idle CPU: $(( (b - a) * 100 / 20 / $(getconf CLK_TCK) )).$(( (b - a) * 1000 / 20 / $(getconf CLK_TCK) % 10 )) % of a core"
"$BIN" client --server "127.0.0.1:$PORT" --name Ana --create forest --seats 4 --people 3 \
    --round-secs 60 --seed 21 --summary "$OUT/ana.json" >"$OUT/ana.log" 2>&1 &
ana=$!
sleep 1
"$BIN" client --server "127.0.0.1:$PORT" --name Bo --summary "$OUT/bo.json" >"$OUT/bo.log" 2>&1 &
bo=$!
"$BIN" client --server "127.0.0.1:$WS" --ws --token-port "$PORT" --name Cy \
    --summary "$OUT/cy.json" >"$OUT/cy.log" 2>&1 &
cy=$!
wait $ana $bo $cy
sleep 1.5
for who in ana bo cy; do
    python3 -c "import json; d = json.load(open('$OUT/$who.json')); \
print('$who', len(d['latencies_ms']), 'moves, p50', d['latency_p50_ms'], 'ms, p99', d['latency_p99_ms'], 'ms')"
done
[ -f "$OUT/server.json" ] && echo "server: $(cat "$OUT/server.json")"
