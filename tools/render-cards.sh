#!/usr/bin/env bash
# Rasterises the card illustrations: art/cards/<game>/<key>.svg (the vector
# sources) -> assets/cards/<game>/<key>.png (the sprites the game loads),
# and the table pieces of art/table/.
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
# Table pieces (card faces and backs, boards, tokens): art/table/<name>.svg
# -> assets/table/<name>.png, at the size each source declares.
mkdir -p assets/table
for svg in art/table/*.svg; do
    rsvg-convert "$svg" -o "assets/table/$(basename "${svg%.svg}").png"
done
# The game picker's art: art/picker/<game>.svg -> assets/picker/<game>.png.
mkdir -p assets/picker
for svg in art/picker/*.svg; do
    rsvg-convert "$svg" -o "assets/picker/$(basename "${svg%.svg}").png"
done
echo "render-cards: $(ls art/cards/*/*.svg art/table/*.svg art/picker/*.svg | wc -l) sprites written"
