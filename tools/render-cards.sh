#!/usr/bin/env bash
# Rasterises the card illustrations: art/cards/<game>/<key>.svg (the vector
# sources) -> assets/cards/<game>/<key>.png (the sprites the game loads).
# Needs rsvg-convert (Debian: librsvg2-bin). Run from anywhere.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v rsvg-convert >/dev/null || { echo "render-cards: needs rsvg-convert (apt-get install librsvg2-bin)" >&2; exit 1; }
for svg in art/cards/*/*.svg; do
    game=$(basename "$(dirname "$svg")")
    out="assets/cards/$game/$(basename "${svg%.svg}").png"
    mkdir -p "$(dirname "$out")"
    rsvg-convert -w 256 -h 256 "$svg" -o "$out"
done
echo "render-cards: $(ls art/cards/*/*.svg | wc -l) sprites written"
