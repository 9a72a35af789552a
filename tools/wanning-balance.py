#!/usr/bin/env python3
"""Regenerates the balance table of rules/src/wanning/rules.md §11 and
prints the cells that moved against the table there now.

    python3 tools/wanning-balance.py [path/to/foodweb] [--write]

Each cell is 1,000 games, seed 1, default settings: all random, one level
reasoning (the others random), all reasoning. `--write` replaces the table
in rules.md; without it the new table and the moved cells are printed.
"""
import json
import re
import subprocess
import sys

RULES = "rules/src/wanning/rules.md"
HEADER = "| players | level | all random | one level reasoning | above? | all reasoning |"


def sim(binary, players, bots):
    out = subprocess.run(
        [binary, "sim", "wanning", "--games", "1000", "--players", str(players),
         "--bots", bots, "--json"],
        check=True, capture_output=True, text=True).stdout
    return {l["level"]: l for l in json.loads(out)["levels"]}


def cell(l):
    return f"{100 * l['win_rate']:.1f}% ({100 * l['ci_low']:.1f}–{100 * l['ci_high']:.1f})"


def table(binary):
    rows = []
    for p in range(4, 11):
        rand = sim(binary, p, "random")
        allr = sim(binary, p, "reasoning")
        for level in range(1, 5):
            one = sim(binary, p, f"{level}=reasoning")[level]
            r = rand[level]
            above = one["ci_low"] > r["win_rate"] and one["win_rate"] > r["ci_high"]
            rows.append(f"| {p} | {level} | {cell(r)} | {cell(one)} | {'yes' if above else 'no'} | {cell(allr[level])} |")
    return rows


def main():
    args = [a for a in sys.argv[1:] if a != "--write"]
    binary = args[0] if args else "foodweb"
    text = open(RULES, encoding="utf-8").read()
    start = text.index(HEADER)
    body_start = text.index("\n", text.index("\n", start) + 1) + 1
    body_end = body_start
    while text.startswith("| ", body_end):
        body_end = text.index("\n", body_end) + 1
    old = text[body_start:body_end].splitlines()
    new = table(binary)
    for o, n in zip(old, new):
        if o != n:
            key = " ".join(o.split("|")[1:3])
            print(f"moved:{key}\n  before {o}\n  after  {n}")
    if "--write" in sys.argv:
        open(RULES, "w", encoding="utf-8").write(text[:body_start] + "\n".join(new) + "\n" + text[body_end:])
    else:
        print("\n".join([HEADER] + new))


if __name__ == "__main__":
    main()
