#!/usr/bin/env bash
# Whether two builds play the same games: `foodweb sim <game> --seed 1
# --json` for every game (Wanning with random and with reasoning bots),
# compared between OLD and NEW with the timings left out, and only the
# fields both builds report (a newer build may report more).
#
#     tools/sim-same.sh OLD_BINARY NEW_BINARY [EXTRA SIM ARGS...]
set -euo pipefail
old=$1 new=$2
shift 2
differ=0
compare='import json,sys
a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2]))
timings={"elapsed_secs","games_per_sec","cpu_secs","games_per_cpu_sec","threads"}
def common(x,y):
    if isinstance(x,dict) and isinstance(y,dict):
        keys=sorted((set(x)&set(y))-timings)
        return {k:common(x[k],y[k])[0] for k in keys},{k:common(x[k],y[k])[1] for k in keys}
    if isinstance(x,list) and isinstance(y,list) and len(x)==len(y):
        p=[common(i,j) for i,j in zip(x,y)]
        return [i for i,_ in p],[j for _,j in p]
    return x,y
x,y=common(a,b)
import hashlib
h=lambda v: hashlib.sha256(json.dumps(v,sort_keys=True).encode()).hexdigest()[:16]
print(h(x),h(y))'
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for run in "forest" "crueler" "gene" "wanning" "wanning --players 7 --bots reasoning"; do
  # shellcheck disable=SC2086
  "$old" sim $run --seed 1 --json "$@" > "$tmp/a"
  # shellcheck disable=SC2086
  "$new" sim $run --seed 1 --json "$@" > "$tmp/b"
  read -r a b < <(python3 -c "$compare" "$tmp/a" "$tmp/b")
  if [ "$a" = "$b" ]; then echo "$run: same ($a)"; else echo "$run: DIFFERENT ($a, $b)"; differ=1; fi
done
exit $differ
