#!/usr/bin/env python3
"""Regenerates the balance table of a game's rules document from one
`foodweb sim` sweep over the number of players, and prints the command
beside it (issue 40).

    python3 tools/balance.py PATH/TO/foodweb GAME [--write]

GAME is forest, crueler or gene (Wanning's table, by level, is
tools/wanning-balance.py). Without --write the table is printed; with it,
the part of rules/src/GAME/rules.md between the balance markers is
replaced.
"""
import json
import shlex
import subprocess
import sys

SWEEPS = {
    "forest": "sim forest --games 2000 --bots memory --sweep 'players: [2, 3, 4, 5, 6, 8]' --json",
    "crueler": "sim crueler --games 2000 --bots survivor --sweep 'players: [4, 7, 10, 13]' --json",
    "gene": "sim gene --games 2000 --bots survivor --sweep 'players: [4, 6, 9]' --json",
}
BEGIN = "<!-- balance: made by tools/balance.py; do not edit by hand -->"
END = "<!-- balance: end -->"


def pct(x, lo, hi):
    return f"{100 * x:.1f}% ({100 * lo:.1f}–{100 * hi:.1f})"


def table(binary, game):
    command = SWEEPS[game]
    out = subprocess.run([binary] + shlex.split(command), check=True,
                         capture_output=True, text=True).stdout
    sweep = json.loads(out)
    first = sweep["variants"][0]
    kinds = [b["kind"] for b in first["bots"]]
    figures = [f["name"] for f in first.get("figures", [])]
    # Bot columns only when more than one kind plays.
    shown_kinds = kinds if len(kinds) > 1 else []
    head = (["players", "fair share", "seat 1 wins", "last seat wins",
             "most winning seat", "least winning seat"]
            + [f"{k} bots win" for k in shown_kinds] + figures)
    rows = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    for v in sweep["variants"]:
        bots = {b["kind"]: b for b in v["bots"]}
        seats = v["seats"]
        s1, sn = seats[0], seats[-1]
        hi = max(seats, key=lambda s: s["win_rate"])
        lo = min(seats, key=lambda s: s["win_rate"])
        cells = [str(v["players"]), f"{100 / v['players']:.1f}%",
                 pct(s1["win_rate"], s1["ci_low"], s1["ci_high"]),
                 pct(sn["win_rate"], sn["ci_low"], sn["ci_high"]),
                 f"{hi['seat']}: " + pct(hi["win_rate"], hi["ci_low"], hi["ci_high"]),
                 f"{lo['seat']}: " + pct(lo["win_rate"], lo["ci_low"], lo["ci_high"])]
        cells += [pct(bots[k]["win_rate"], bots[k]["ci_low"], bots[k]["ci_high"])
                  for k in shown_kinds]
        for f in v.get("figures", []):
            if f.get("share"):
                cells.append(pct(f["mean"], f["ci_low"], f["ci_high"]))
            else:
                cells.append(f"{f['mean']:.1f} ({f['ci_low']:.1f}–{f['ci_high']:.1f})")
        rows.append("| " + " | ".join(cells) + " |")
    shown = command.replace(" --json", "")
    return "\n".join([
        BEGIN,
        "",
        f"`foodweb {shown}` (seeds 1 to {first['games']}; one kind of bot at",
        "every seat, so a seat's edge is the rules'; a shared first place",
        "counts as a share; 95% Wilson intervals, figures with a 95% interval",
        "of the mean):",
        "",
        *rows,
        "",
        f"To regenerate: `python3 tools/balance.py PATH/TO/foodweb {game} --write`",
        "(or the command above with `--report FILE` for the page with plots).",
        "",
        END,
    ])


def main():
    if len(sys.argv) < 3 or sys.argv[2] not in SWEEPS:
        sys.exit(__doc__)
    binary, game = sys.argv[1], sys.argv[2]
    text = table(binary, game)
    if "--write" not in sys.argv:
        print(text)
        return
    path = f"rules/src/{game}/rules.md"
    doc = open(path, encoding="utf-8").read()
    if BEGIN not in doc:
        sys.exit(f"{path} has no balance markers ({BEGIN})")
    a = doc.index(BEGIN)
    b = doc.index(END, a) + len(END)
    open(path, "w", encoding="utf-8").write(doc[:a] + text + doc[b:])
    print(f"{path}: balance table written")


if __name__ == "__main__":
    main()
