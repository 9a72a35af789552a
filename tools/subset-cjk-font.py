#!/usr/bin/env python3
"""Makes assets/fonts/FoodwebCJK.otf: Noto Sans CJK SC cut down to the
characters a party needs (GB2312's 6,763 hanzi, the traditional characters
Foodweb's own texts use, Latin, punctuation), so the font stays small enough
for the browser build.

Needs: Debian's fonts-noto-cjk, and fonttools (pip). Run from the repo root:
    python3 tools/subset-cjk-font.py
"""
import pathlib
import sys

from fontTools.ttLib import TTCollection
from fontTools import subset

SOURCE = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
OUT = pathlib.Path("assets/fonts/FoodwebCJK.otf")


def wanted_chars() -> str:
    chars = set(chr(c) for c in range(0x20, 0x7F))
    chars |= set(chr(c) for c in range(0xA0, 0x180))  # Latin-1, Latin Extended-A
    chars |= set(chr(c) for c in range(0x3000, 0x3040))  # CJK punctuation
    chars |= set(chr(c) for c in range(0xFF00, 0xFFF0))  # full-width forms
    chars |= set("·—–‘’“”…•→←↑↓×÷✓✗")
    for hi in range(0xB0, 0xF8):  # GB2312 hanzi, levels 1 and 2
        for lo in range(0xA1, 0xFF):
            try:
                chars.add(bytes([hi, lo]).decode("gb2312"))
            except UnicodeDecodeError:
                pass
    for pattern in ("rules/**/*.rs", "rules/**/*.ron", "rules/**/*.md", "src/**/*.rs",
                    "assets/i18n/*.ftl", "../shared/seeds/*.txt"):
        for path in pathlib.Path(".").glob(pattern):
            chars |= set(path.read_text(encoding="utf-8", errors="ignore"))
    return "".join(sorted(c for c in chars if c.isprintable()))


def main() -> int:
    collection = TTCollection(SOURCE)
    font = next(f for f in collection.fonts
                if "Noto Sans CJK SC" in str(f["name"].getDebugName(1)))
    options = subset.Options()
    options.layout_features = ["*"]
    options.name_IDs = ["*"]
    options.name_languages = ["*"]
    options.notdef_outline = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=wanted_chars())
    subsetter.subset(font)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    font.save(str(OUT))
    print(f"{OUT}: {OUT.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
