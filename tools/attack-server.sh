#!/usr/bin/env bash
# Issue 33: every attack of the robustness suite at the scale the issue
# describes (30 addresses of UDP guests holding places with keep-alives,
# 64 addresses of silent WebSockets, 32 slow readers, 64 addresses of
# slowloris, a 1024-file server flooded for 8 s, issue 70's talk flood of
# 4,379 lines and 28 addresses x 10 connections holding lessons and tables
# never started, ...), against a real
# `foodweb serve` on loopback, printing what each did to the server.
#
#   tools/attack-server.sh            # all of them (a few minutes)
#   tools/attack-server.sh round_two  # only the tests whose name has this
#
# Outside CI: the suite runs the same attacks at a small scale in `.ci/run`.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-/var/tmp/foodweb-target}"
export FOODWEB_ATTACK_SCALE=full
cargo test --test robustness -- --nocapture --test-threads 1 "${1:-}" 2>&1 \
    | grep -Ev '^\s*(Compiling|Finished|Running)\b'
