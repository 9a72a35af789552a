#!/usr/bin/env bash
# Pictures for docs/screenshots from real-input runs (issue 37): the
# desktop test (tests/hands/run-desktop.sh: X pointer events through
# xdotool) in English and Chinese, in a 1280x720 window and a phone's
# 390x844; from each run, every game's set-up screen as a newcomer opens it
# (`set-up-<game>`) and a piece inspected by the mouse resting on it
# (`inspect-<game>`), named `-phone` and `-zh` as the tours' pictures are.
# Needs what the desktop test needs (tests/hands/setup.sh) and ImageMagick's
# `import`; the client the tests build (`cargo test --workspace --no-run`).
#
#   tools/inspect-shots.sh [OUT_DIR] [game ...]
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-docs/screenshots}
shift || true
games=("$@")
[ ${#games[@]} -gt 0 ] || games=(forest gene crueler wanning)
mkdir -p "$out"
command -v import >/dev/null || { echo "needs ImageMagick's import (apt-get install imagemagick)"; exit 1; }
for lang in en zh; do
    for size in 1280x720 390x844; do
        case $lang in en) locale=en_US.UTF-8 l= ;; zh) locale=zh_CN.UTF-8 l=-zh ;; esac
        case $size in 1280x720) screen=1280x720 s= ;; 390x844) screen=1280x900 s=-phone ;; esac
        run=$(mktemp -d)
        echo "inspect-shots: $lang at $size"
        LANG=$locale LC_ALL=$locale FOODWEB_WINDOW=$size FOODWEB_SCREEN=$screen \
            tests/hands/run-desktop.sh "$run" "${games[@]}" >"$run/run.log" 2>&1 \
            || { echo "inspect-shots: the run failed ($run/run.log)" >&2; tail -n 5 "$run/run.log" >&2; }
        for game in "${games[@]}"; do
            [ -f "$run/set-up-$game.png" ] && cp "$run/set-up-$game.png" "$out/set-up-$game$s$l.png"
            shot="$run/inspect-$game-desktop-$game-pointer.png"
            [ -f "$shot" ] && cp "$shot" "$out/inspect-$game$s$l.png"
        done
    done
done
ls "$out" | grep -E '^(set-up|inspect)-'
