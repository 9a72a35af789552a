#!/usr/bin/env bash
# Every change is told (issue 71), the whole sweep: `rules/tests/told.rs`
# at every table size of each game and SEEDS seeds a size (CI plays 3 at
# the smallest and largest). With CI's settings, so it builds nothing
# CI's build has not.
#
#     tools/told.sh [SEEDS]        (default 40)
set -euo pipefail
cd "$(dirname "$0")/.."
source tools/ci-settings.sh
FOODWEB_TOLD_SEEDS="${1:-40}" FOODWEB_TOLD_ALL_SIZES=1 \
    cargo test -p foodweb-rules --test told -- --nocapture
