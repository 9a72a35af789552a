#!/usr/bin/env bash
# Remakes docs/screenshots: every game's tour (the `dev` feature) at
# 1280x720, 1920x1080 (`-1080p`) and a 390x844 phone (`-phone`), under
# Xvfb with the software renderer, and each tour's frame times
# (`frames-<game>-<size>.txt`, from the frame log).
# Needs: apt-get install xvfb mesa-vulkan-drivers. Run from anywhere.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-docs/screenshots}
mkdir -p "$out"
# CI's settings and target folder, so this build shares CI's work.
source tools/ci-settings.sh
cargo build --workspace --features foodweb/dev
# Where cargo put it: CARGO_TARGET_DIR or a cargo config may move the
# target folder, so ask cargo rather than assume `./target`.
target=$(cargo metadata --format-version 1 --no-deps \
    | python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
bin=$(mktemp -d)/foodweb
# A copy: another build in the same target folder cannot swap it midway.
cp "$target/debug/foodweb" "$bin"
for size in 1280x720 1920x1080 390x844; do
    case $size in
        1280x720) suffix= screen=1280x720 ;;
        1920x1080) suffix=-1080p screen=1920x1080 ;;
        390x844) suffix=-phone screen=1280x900 ;;
    esac
    for game in forest gene crueler wanning; do
        # Forest's tour is the one run without FOODWEB_TOUR_GAME.
        game_env=(FOODWEB_TOUR_GAME=$game)
        [ "$game" = forest ] && game_env=()
        echo "screenshots: $game at $size"
        env "${game_env[@]}" BEVY_ASSET_ROOT="$PWD" FOODWEB_WINDOW=$size FOODWEB_TOUR="$out" \
            FOODWEB_TOUR_SUFFIX=$suffix \
            FOODWEB_BOT_DELAY_MS=150 FOODWEB_FRAMES="$out/frames-$game$suffix.txt" \
            timeout 300 xvfb-run -a -s "-screen 0 ${screen}x24" "$bin" >/dev/null 2>&1 \
            || echo "screenshots: the $game tour at $size did not finish" >&2
    done
done
ls "$out"
