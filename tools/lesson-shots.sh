#!/usr/bin/env bash
# Pictures of each game's "Learn to play" (issue 38) for docs/screenshots,
# from real-input runs: the desktop test's lesson runs
# (tests/hands/run-desktop.sh lesson:GAME, X pointer events through
# xdotool, tests/hands/lesson.mjs) in English and Chinese, in a 1280x720
# window and a phone's 390x844; from each, a step of the lesson
# (`lesson-<game>`: its third step, or its first if it has fewer) and its
# summary (`lesson-<game>-done`), named `-phone` and `-zh` as the tours'
# pictures are. Needs what the desktop test needs (tests/hands/setup.sh),
# ImageMagick's `import`, and the client the tests build (`cargo test
# --workspace --no-run`).
#
#   tools/lesson-shots.sh [OUT_DIR] [game ...]
#
# LESSON_LANGS="en zh" and LESSON_SIZES="1280x720 390x844" choose fewer.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-docs/screenshots}
shift || true
games=("$@")
[ ${#games[@]} -gt 0 ] || games=(forest crueler gene wanning)
mkdir -p "$out"
command -v import >/dev/null || { echo "needs ImageMagick's import (apt-get install imagemagick)"; exit 1; }
for lang in ${LESSON_LANGS:-en zh}; do
    for size in ${LESSON_SIZES:-1280x720 390x844}; do
        case $lang in en) locale=en_US.UTF-8 l= ;; zh) locale=zh_CN.UTF-8 l=-zh ;; esac
        case $size in 1280x720) screen=1280x720 s= ;; 390x844) screen=1280x900 s=-phone ;; esac
        run=$(mktemp -d)
        echo "lesson-shots: $lang at $size"
        LANG=$locale LC_ALL=$locale FOODWEB_WINDOW=$size FOODWEB_SCREEN=$screen FOODWEB_BOT_DELAY_MS=400 \
            tests/hands/run-desktop.sh "$run" "${games[@]/#/lesson:}" >"$run/run.log" 2>&1 \
            || { echo "lesson-shots: the run failed ($run/run.log)" >&2; tail -n 5 "$run/run.log" >&2; }
        for game in "${games[@]}"; do
            for shot in step first; do
                f="$run/lesson-$game-desktop$l-$shot.png"
                if [ -f "$f" ]; then cp "$f" "$out/lesson-$game$s$l.png"; break; fi
            done
            f="$run/lesson-$game-desktop$l-done.png"
            [ -f "$f" ] && cp "$f" "$out/lesson-$game-done$s$l.png"
        done
    done
done
ls "$out" | grep -E '^lesson-'
