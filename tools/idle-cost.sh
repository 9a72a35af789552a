#!/usr/bin/env bash
# What the desktop client costs while nothing happens, and whether its
# memory stops growing (issue 67). Not part of CI: a measurement, run by
# hand, whose figures go in the issue's notes with this command.
#
#   tools/idle-cost.sh [OUT] [GAMES]
#
# 1. CPU: the client at its title, untouched, for 10 s under Xvfb (the
#    software renderer, as CI has): the share of one core it used, from
#    /proc/PID/stat, and the updates it drew (its idle log).
# 2. Memory: GAMES (default 5) games against bots, one after another
#    (`FOODWEB_AUTOPLAY=local FOODWEB_GAMES=N`, bots 400 ms apart): the
#    resident memory the client logs as each ends, and the growth from
#    the end of the first to the end of the last ("after the first game,
#    four more add at most 32 MB").
#
# FOODWEB_BIN picks the client (default: the debug build CI tests; a
# release build is smaller and quicker), FOODWEB_GAME the game (default
# Forest Showdown).
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-/var/tmp/foodweb-target}"
out="${1:-/var/tmp/foodweb-idle-cost}"
games="${2:-5}"
bin="${FOODWEB_BIN:-$CARGO_TARGET_DIR/debug/foodweb}"
[ -x "$bin" ] || { echo "no client at $bin: run 'cargo build' first"; exit 1; }
mkdir -p "$out"

n=91
while [ -e "/tmp/.X$n-lock" ] || [ -e "/tmp/.X11-unix/X$n" ]; do n=$((n + 1)); done
Xvfb ":$n" -screen 0 1280x720x24 -nolisten tcp >"$out/xvfb.log" 2>&1 &
xvfb=$!
client=
trap 'kill $client 2>/dev/null || true; kill $xvfb 2>/dev/null || true' EXIT
for _ in $(seq 50); do [ -e "/tmp/.X11-unix/X$n" ] && break; sleep 0.1; done
export DISPLAY=":$n" WAYLAND_DISPLAY=

# Clock ticks a process has used (user + system).
ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
hz=$(getconf CLK_TCK)

echo "== idle title (10 s)"
FOODWEB_WAKE_LOG=1 "$bin" >"$out/title.log" 2>&1 &
client=$!
sleep 15 # loaded, the title drawn
t0=$(ticks $client); u0=$(grep -c "wake log: update" "$out/title.log" || true)
sleep 10
t1=$(ticks $client); u1=$(grep -c "wake log: update" "$out/title.log" || true)
kill $client; wait $client 2>/dev/null || true
awk -v t="$((t1 - t0))" -v hz="$hz" -v u="$((u1 - u0))" \
    'BEGIN { printf "   %.1f%% of a core, %d updates in 10 s\n", 100 * t / hz / 10, u }' |
    tee "$out/idle.txt"

echo "== memory over $games games against bots"
FOODWEB_AUTOPLAY=local FOODWEB_GAMES="$games" FOODWEB_QUICKEST=1 FOODWEB_BOT_DELAY_MS=400 \
    "$bin" >"$out/games.log" 2>&1 &
client=$!
while kill -0 $client 2>/dev/null; do
    grep -q "autoplay: game $games of $games over" "$out/games.log" && break
    sleep 2
done
kill $client 2>/dev/null || true
wait $client 2>/dev/null || true
grep -o "game [0-9]* of [0-9]* over; resident memory [0-9]* KiB" "$out/games.log" |
    awk '{ kib[$2] = $8; last = $2; printf "   game %d: %.1f MB\n", $2, $8 / 1024 }
         END { if (last > 1) printf "   games 2-%d added %.1f MB after the first\n", last, (kib[last] - kib[1]) / 1024 }' |
    tee "$out/memory.txt"
