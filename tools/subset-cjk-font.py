#!/usr/bin/env python3
"""Makes the two fonts the client uses, both Noto Sans CJK SC cut down:

- assets/fonts/FoodwebUI.otf: Latin, punctuation and every character of
  Foodweb's own texts (translations, rules, game data, the seeds): all the
  screens need, loaded before the title screen (about 0.6 MB);
- assets/fonts/FoodwebCJK.otf: GB2312's 6,763 hanzi on top, for what
  players type (names, chat), loaded in the background once the title
  screen shows (about 3.4 MB).

Needs: Debian's fonts-noto-cjk, and fonttools (pip). Run from the repo root:
    python3 tools/subset-cjk-font.py
"""
import pathlib
import sys

from fontTools.ttLib import TTCollection
from fontTools import subset

SOURCE = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
UI_OUT = pathlib.Path("assets/fonts/FoodwebUI.otf")
FULL_OUT = pathlib.Path("assets/fonts/FoodwebCJK.otf")


def base_chars() -> set:
    chars = set(chr(c) for c in range(0x20, 0x7F))
    chars |= set(chr(c) for c in range(0xA0, 0x180))  # Latin-1, Latin Extended-A
    chars |= set(chr(c) for c in range(0x3000, 0x3040))  # CJK punctuation
    chars |= set(chr(c) for c in range(0xFF00, 0xFFF0))  # full-width forms
    chars |= set("·—–‘’“”…•→←↑↓×÷✓✗")
    return chars


def own_chars() -> set:
    chars = set()
    for pattern in ("rules/**/*.rs", "rules/**/*.ron", "rules/**/*.md", "src/**/*.rs",
                    "netcode/**/*.rs", "assets/i18n/*.ftl", "rules/i18n/**/*.ftl",
                    "../shared/seeds/*.txt"):
        for path in pathlib.Path(".").glob(pattern):
            chars |= set(path.read_text(encoding="utf-8", errors="ignore"))
    return chars


def gb2312_hanzi() -> set:
    chars = set()
    for hi in range(0xB0, 0xF8):  # GB2312 hanzi, levels 1 and 2
        for lo in range(0xA1, 0xFF):
            try:
                chars.add(bytes([hi, lo]).decode("gb2312"))
            except UnicodeDecodeError:
                pass
    return chars


def write_subset(chars: set, out: pathlib.Path) -> None:
    collection = TTCollection(SOURCE)
    font = next(f for f in collection.fonts
                if "Noto Sans CJK SC" in str(f["name"].getDebugName(1)))
    options = subset.Options()
    options.layout_features = ["*"]
    options.name_IDs = ["*"]
    options.name_languages = ["*"]
    options.notdef_outline = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(text="".join(sorted(c for c in chars if c.isprintable())))
    subsetter.subset(font)
    out.parent.mkdir(parents=True, exist_ok=True)
    font.save(str(out))
    print(f"{out}: {out.stat().st_size} bytes")


def main() -> int:
    ui = base_chars() | own_chars()
    write_subset(ui, UI_OUT)
    write_subset(ui | gb2312_hanzi(), FULL_OUT)
    return 0


if __name__ == "__main__":
    sys.exit(main())
