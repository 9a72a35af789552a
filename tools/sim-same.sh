#!/usr/bin/env bash
# Whether two builds play the same games: `foodweb sim <game> --seed 1
# --json` for every game, timings left out, compared between OLD and NEW
# (issue 36: a restructuring changes no game).
#
#     tools/sim-same.sh OLD_BINARY NEW_BINARY
set -euo pipefail
old=$1 new=$2 differ=0
strip='import json,sys
d=json.load(sys.stdin)
for k in ("elapsed_secs","games_per_sec","cpu_secs","games_per_cpu_sec"): d.pop(k,None)
print(json.dumps(d,sort_keys=True))'
for game in forest crueler gene wanning; do
  a=$("$old" sim "$game" --seed 1 --json | python3 -c "$strip" | sha256sum | cut -c1-16)
  b=$("$new" sim "$game" --seed 1 --json | python3 -c "$strip" | sha256sum | cut -c1-16)
  if [ "$a" = "$b" ]; then echo "$game: same ($a)"; else echo "$game: DIFFERENT ($a, $b)"; differ=1; fi
done
exit $differ
