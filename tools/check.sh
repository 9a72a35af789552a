#!/usr/bin/env bash
# CI's checks before its desktop test, with CI's settings and its target
# folder (tools/ci-settings.sh), so what passes here passes those steps of
# .ci/run, which calls this script for them, and CI's build stays warm.
# Run it before every commit.
#
#   tools/check.sh              every step below, in order
#   tools/check.sh STEP...      those steps only:
#     toolchain   rustfmt and clippy (rustup)
#     fmt         cargo fmt --all -- --check
#     loops       import loops between the modules of each crate (none allowed)
#     build       cargo test --workspace --all-targets --no-run, clippy -D warnings inside
#     tests       cargo test --workspace (README's test command), run only
set -euo pipefail
cd "$(dirname "$0")/.."
source tools/ci-settings.sh

toolchain() {
    rustup component list --installed | grep -q '^clippy' || rustup component add clippy
    rustup component list --installed | grep -q '^rustfmt' || rustup component add rustfmt
    cargo --version
}
fmt() { cargo fmt --all -- --check; }
# Import loops between modules may only go down: issue 36 took them to
# none (11 on 2026-12-01, none on 2026-12-02); none may come back.
loops() { python3 tools/module-loops.py --max 0; }
# Progress lines are left out (--timings' report in the target folder has
# every crate); cargo's exit status decides (pipefail).
build() {
    cargo test --workspace --all-targets --no-run --timings 2>&1 \
        | { grep -v '^ *\(Compiling\|Checking\|Downloaded\|Downloading\|Executable\)' || true; }
}
tests() { cargo test --workspace; }

steps=("$@")
[ ${#steps[@]} -gt 0 ] || steps=(toolchain fmt loops build tests)
for s in "${steps[@]}"; do
    case "$s" in
        toolchain|fmt|loops|build|tests) ;;
        *) echo "tools/check.sh: no step '$s' (toolchain, fmt, loops, build, tests)" >&2; exit 2 ;;
    esac
done
started=$(date +%s)
for s in "${steps[@]}"; do
    t=$(date +%s)
    "$s"
    echo "check.sh: $s took $(( $(date +%s) - t )) s"
done
echo "check.sh: done in $(( $(date +%s) - started )) s"
