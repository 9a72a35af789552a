#!/usr/bin/env bash
# Games per CPU second of two builds side by side, on one core
# (`taskset -c 0`; the newer build also told `--threads 1`), each run
# in turn, REPEATS times (median kept): Forest (4 players, random bots),
# Gene (6), Crueler (13), Wanning (7, random and reasoning bots); each run
# lasts one to four seconds, so the CPU clock's hundredths are fine enough.
#
#     tools/sim-speed.sh OLD_BINARY NEW_BINARY [REPEATS]
set -euo pipefail
old=$1 new=$2 repeats=${3:-3}
runs=(
  "forest --players 4 --bots random --games 6000"
  "gene --players 6 --games 4000"
  "crueler --players 13 --games 2000"
  "wanning --players 7 --bots random --games 8000"
  "wanning --players 7 --bots reasoning --games 8000"
)
cpu() { # binary, extra args, run
  local out
  # shellcheck disable=SC2086
  out=$( { /usr/bin/time -f "%U %S" taskset -c 0 "$1" sim $3 $2 --json >/dev/null; } 2>&1 | tail -1)
  python3 -c "import sys; u,s=map(float,sys.argv[1:]); print(u+s)" $out
}
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
threads=""
if "$new" sim --help | grep -q -- --threads; then threads="--threads 1"; fi
printf '%-52s %14s %14s %7s\n' "run" "old games/CPUs" "new games/CPUs" "ratio"
for run in "${runs[@]}"; do
  games=${run##* }
  a=() b=()
  for _ in $(seq "$repeats"); do
    a+=("$(cpu "$old" "" "$run")")
    b+=("$(cpu "$new" "$threads" "$run")")
  done
  ma=$(median "${a[@]}") mb=$(median "${b[@]}")
  python3 -c "
import sys
g,a,b=int(sys.argv[1]),float(sys.argv[2]),float(sys.argv[3])
print(f'{sys.argv[4]:<52} {g/a:14.0f} {g/b:14.0f} {a/b:6.2f}x')" "$games" "$ma" "$mb" "$run"
done
