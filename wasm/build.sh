#!/usr/bin/env bash
# Builds the browser client into wasm/dist: the same client compiled to
# wasm32-unknown-unknown, bound with wasm-bindgen (tools/wasm-bind, the
# library at the version in Cargo.lock), the page and the assets beside
# it. Serve wasm/dist over HTTP (e.g. `foodweb serve --http-port 8080`, or
# `python3 -m http.server -d wasm/dist`).
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-/var/tmp/foodweb-target}"
PROFILE="${PROFILE:-wasm-release}"

rustup target list --installed | grep -qx wasm32-unknown-unknown \
    || rustup target add wasm32-unknown-unknown

cargo build --profile "$PROFILE" --target wasm32-unknown-unknown --bin foodweb
rm -rf wasm/dist
mkdir -p wasm/dist
# Bound by wasm-bindgen's own library at the version the client links
# (tools/wasm-bind, a workspace member: built with the tests, no CLI to
# install).
cargo run -q -p foodweb-wasm-bind -- \
    "$CARGO_TARGET_DIR/wasm32-unknown-unknown/$PROFILE/foodweb.wasm" wasm/dist
# wasm-opt only when asked (WASM_OPT=1): Debian 12's binaryen 108 breaks
# the module (the page dies with "WebAssembly.Table.set(): Argument 1 is
# invalid for table"), with or without --enable-reference-types; a newer
# binaryen (npm's `binaryen` package) is needed, and takes minutes.
if [ -n "${WASM_OPT:-}" ]; then
    wasm-opt -Os --enable-bulk-memory --enable-nontrapping-float-to-int \
        --enable-reference-types --enable-sign-ext --enable-mutable-globals \
        -o wasm/dist/foodweb_bg.wasm wasm/dist/foodweb_bg.wasm
fi
cp wasm/index.html wasm/dist/
cp -r assets wasm/dist/assets
# The UI font is built into the module (src/client/assets.rs).
rm wasm/dist/assets/fonts/FoodwebUI.otf
# Gzip twins of what compresses: `foodweb serve` sends them to browsers that
# take gzip (the module shrinks to a fifth). The module's own was written
# by tools/wasm-bind with Zopfli (3 % smaller than gzip -9); wasm-opt,
# when asked for, changed the module, so its twin is written again.
if [ -n "${WASM_OPT:-}" ]; then gzip -9 -k -f wasm/dist/foodweb_bg.wasm; fi
gzip -9 -k -f wasm/dist/foodweb.js wasm/dist/index.html \
    wasm/dist/assets/fonts/*.otf wasm/dist/assets/fonts/*.ttf
ls -l wasm/dist
