#!/usr/bin/env bash
# The desktop test: the native client (the debug build `cargo test
# --workspace` makes) in a window of its own X server (Xvfb, 1280x720),
# one seat of each game played by the pointer to the game's end and then
# by the keyboard, with events that enter at the window system (xdotool,
# XTest). What it needs: tests/hands/setup.sh. Reports and the client's
# logs go to OUT_DIR (default /var/tmp/foodweb-desktop-test).
#
#   tests/hands/run-desktop.sh [OUT_DIR] [game ...]
set -euo pipefail
cd "$(dirname "$0")/../.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-/var/tmp/foodweb-target}"
out="${1:-/var/tmp/foodweb-desktop-test}"
shift || true
bin="${FOODWEB_BIN:-$CARGO_TARGET_DIR/debug/foodweb}"
[ -x "$bin" ] || { echo "no client at $bin: run 'cargo test --workspace --no-run' first"; exit 1; }
mkdir -p "$out"

# A display number nobody uses.
n=91
while [ -e "/tmp/.X$n-lock" ] || [ -e "/tmp/.X11-unix/X$n" ]; do n=$((n + 1)); done
# FOODWEB_SCREEN: the X screen (the client's window is FOODWEB_WINDOW,
# 1280x720 unless set; tools/inspect-shots.sh runs a phone's 390x844).
Xvfb ":$n" -screen 0 "${FOODWEB_SCREEN:-1280x720}x24" -nolisten tcp >"$out/xvfb.log" 2>&1 &
xvfb=$!
trap 'kill $xvfb 2>/dev/null || true' EXIT
for _ in $(seq 50); do [ -e "/tmp/.X11-unix/X$n" ] && break; sleep 0.1; done

DISPLAY=":$n" WAYLAND_DISPLAY= node tests/hands/desktop.mjs "$bin" "$out" "$@"
