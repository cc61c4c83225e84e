#!/usr/bin/env bash
# bench/sbst/run.sh - the search-based strategies side by side (issue 3):
# random, wts, mosa, dynamosa and mio on seed 001's examples and on the
# programs of bench/sbst/programs, all in function mode, SEEDS seeds each.
#
# Prints per program and strategy:
#   cov%   mean branch coverage of the program file over the seeds, measured
#          independently by `ctestgen replay` (gcc + gcov)
#   full   seeds that covered every goal (our instrumentation, driver
#          included) within the budget
#   med    median executions to cover every goal (">B" when more than half
#          of the seeds did not within the budget B)
#
# Usage: bench/sbst/run.sh [-s SEEDS] [-n BUDGET] [-j JOBS] [STRATEGY ...]
#   defaults: 10 seeds, 10000 executions (20000 for seed 001's examples, as
#   issue 3 asks), 1 job, all five strategies.
#   CTESTGEN (default build/ctestgen) and WORK (default a temporary directory)
#   may be set in the environment; ONLY=REGEX keeps the programs whose
#   function matches, EXTRA="OPTIONS" is added to every run, e.g. the seed's
#   value operators only:
#     ONLY=triangle EXTRA="--fixed-steps --p-copy 0 --p-tied 0 --p-pool 0" bench/sbst/run.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
CTESTGEN=${CTESTGEN:-$root/build/ctestgen}
seeds=10 budget=10000 jobs=1
while getopts "s:n:j:" o; do
  case $o in
    s) seeds=$OPTARG ;;
    n) budget=$OPTARG ;;
    j) jobs=$OPTARG ;;
    *) sed -n '2,23p' "$0"; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
strategies=${*:-random wts mosa dynamosa mio}
work=${WORK:-$(mktemp -d "${TMPDIR:-/tmp}/ctg-bench-sbst.XXXXXX")}
mkdir -p "$work"

# program file, function, budget (- for the default), extra options
big=$((budget > 20000 ? budget : 20000))
programs=(
  "$root/examples/triangle_fn.c triangle $big --int-range 1000000"
  "$root/examples/cgi_decode_fn.c cgi_decode $big"
  "$here/programs/nested.c nested -"
  "$here/programs/date.c date_valid -"
  "$here/programs/loops.c array_stats -"
  "$here/programs/kv.c parse_kv -"
  "$here/programs/quadratic.c roots -"
  "$here/programs/rect.c rect_relation -"
  "$here/programs/list.c list_check -"
  "$here/programs/bits.c bits -"
  "$here/programs/vowels.c vowels -"
  "$here/programs/mixed.c mixed -"
  "$here/programs/fpnear.c fp_near -"
)

# the ONLY filter
if [ -n "${ONLY:-}" ]; then
  kept=()
  for p in "${programs[@]}"; do
    set -- $p
    [[ $2 =~ $ONLY ]] && kept+=("$p")
  done
  programs=("${kept[@]}")
fi

# One run: writes "cov total execs_to_full|-" to $dir/result.
one() {
  local file=$1 fn=$2 strat=$3 seed=$4 dir=$5 n=$6; shift 6
  "$CTESTGEN" run "$file" --function "$fn" --strategy "$strat" --max-execs "$n" \
    --seed "$seed" -o "$dir" -q --force "$@" >/dev/null 2>&1 || { echo "0 0 -" >"$dir.result"; return; }
  local cov
  cov=$("$CTESTGEN" replay "$dir" "$file" | sed -n "s|^  $file: branches \([0-9]*\)/\([0-9]*\).*|\1 \2|p")
  local full
  full=$(jq -r '.counters["edges.total"] as $t | ([.samples[] | select(.edges >= $t) | .execs] | min) // "-"' \
           "$dir/stats.json")
  echo "${cov:-0 0} $full" >"$dir.result"
}
export -f one
export CTESTGEN

# every run, JOBS at a time
for p in "${programs[@]}"; do
  set -- $p
  file=$1 fn=$2 n=$3; shift 3
  [ "$n" = - ] && n=$budget
  for s in $strategies; do
    for k in $(seq 1 "$seeds"); do
      x="$* ${EXTRA:-}"
      x=$(echo $x) # no trailing blank: xargs -L joins such lines
      echo "$file $fn $s $k $work/$fn-$s-$k $n${x:+ $x}"
    done
  done
done | xargs -P "$jobs" -L 1 bash -c 'one "$@"' _

# the table
printf "%-12s %5s" program goals
for s in $strategies; do printf " | %-20s" "$s"; done
printf "\n%-12s %5s" "" ""
for s in $strategies; do printf " | %6s %5s %7s" "cov%" full med; done
printf "\n"
for p in "${programs[@]}"; do
  set -- $p
  fn=$2 n=$3
  [ "$n" = - ] && n=$budget
  goals=$(cat "$work/$fn-${strategies%% *}-1.result" | awk '{print $2}')
  printf "%-12s %5s" "$fn" "$goals"
  for s in $strategies; do
    covs=() fulls=()
    for k in $(seq 1 "$seeds"); do
      read -r c t f <"$work/$fn-$s-$k.result"
      covs+=("$c/$t")
      fulls+=("$f")
    done
    mean=$(printf "%s\n" "${covs[@]}" | awk -F/ '{ s += ($2 ? 100 * $1 / $2 : 0); n++ } END { printf "%.1f", s / n }')
    nfull=$(printf "%s\n" "${fulls[@]}" | grep -vc -- '-' || true)
    med=$(printf "%s\n" "${fulls[@]}" | sed "s/^-$/999999999/" | sort -n |
          awk -v b="$n" '{ a[NR] = $1 } END { m = (NR % 2) ? a[(NR + 1) / 2] : int((a[NR / 2] + a[NR / 2 + 1]) / 2);
                                                   if (m >= 999999999 || m > b) print ">" b; else print m }')
    printf " | %6s %2s/%-2s %7s" "$mean" "$nfull" "$seeds" "$med"
  done
  printf "\n"
done
echo "budget $budget executions per run ($big for triangle and cgi_decode), $seeds seeds; work files in $work"
