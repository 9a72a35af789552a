# CI's settings for cargo, sourced by .ci/run and tools/check.sh (not run):
# every build on this machine shares one target folder and these settings,
# so no command rebuilds another's work.

# The target folder lives outside the clone, so a rerun on the same machine
# is warm (and a fresh clone does not start cold); README's commands, the
# scripts and CI all build into it.
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-/var/tmp/foodweb-target}"
export CARGO_TERM_COLOR=never
export CARGO_INCREMENTAL=0

# Clippy runs inside the build instead of as a second pass: cargo hands each
# workspace crate to clippy-driver, which lints and compiles it in one go,
# so the dependencies are not checked again on their own (minutes from
# cold). `cargo clippy --workspace --all-targets -- -D warnings` checks the
# same by hand, but with other settings, so it builds again.
RUSTC_WORKSPACE_WRAPPER="$(rustup which clippy-driver 2>/dev/null \
    || echo "$(rustc --print sysroot)/bin/clippy-driver")"
export RUSTC_WORKSPACE_WRAPPER
export CLIPPY_ARGS="-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__"
