#!/usr/bin/env bash
# t0129-bmc: the bounded checker (issue 58, part 2: bounded symbolic
# reachability).  bmc_find.c: its model reaches an error that 100 random
# inputs miss, the test replays, and 2 * x == 7 (no 32-bit solution) with
# the error call behind it is proven unreachable for every input, every
# execution ending within the bound.  bmc_bound.c: a loop bounded by an
# input: the error is not reached within the bound, and not claimed
# unreachable.  bmc_array.c: memory it does not model: it claims nothing.
# --prove auto with a time budget runs it beside Eva.
# LABELS: asan
. "$(dirname "$0")/lib.sh"
export CTESTGEN_CACHE="$T/cache"
run() { # NAME PROGRAM ARGS...
  local n=$1 p=$2
  shift 2
  "$CTESTGEN" run "$PROGS/$p" --strategy random --max-execs 100 --seed 1 -o "$T/$n" "$@" \
    >"$T/$n.out" 2>&1 || fail "run $n on $p: $(tail -3 "$T/$n.out")"
}
goal() { jq -r "[.final.goals[] | select($2)] | length" "$T/$1/stats.json"; }

run none bmc_find.c --prove none
run find bmc_find.c --prove bmc
check "without it, 100 random inputs miss the error" [ "$(goal none '.kind=="error" and .status=="covered"')" = 0 ]
check "with it, the error is reached" [ "$(goal find '.kind=="error" and .status=="covered"')" = 1 ]
check "its inputs ran and covered edges" [ "$(stat bmc.edges_new "$T/find")" -ge 1 ]
"$CTESTGEN" replay "$T/find" "$PROGS/bmc_find.c" >"$T/replay" 2>&1
check "the error replays under gcc" grep -q "^reach_error: reached by test-" "$T/replay"
check "2*x == 7 and its error call: proven unreachable, for every input" \
  [ "$(goal find '.status=="unreachable" and (.method|startswith("bounded symbolic reachability")) and .bound==null')" = 2 ]
check "the summary says every execution ends within the bound" \
  grep -q "proofs .*bounded checker .*every execution ends within them" "$T/find.out"
check "the summary counts the proof" grep -q "errors reached *1/2 (1 proven unreachable)" "$T/find.out"
check "without it nothing is claimed" [ "$(goal none '.status=="unreachable"')" = 0 ]

run bound bmc_bound.c --prove bmc
check "an input-bounded loop: nothing claimed unreachable" [ "$(goal bound '.status=="unreachable"')" = 0 ]
check "the error: not reached within the bound, which it names" \
  [ "$(goal bound '.kind=="error" and .status=="not-reached" and .bound > 0 and (.why|test("no path of at most [0-9]+ blocks reaches it"))')" = 1 ]

check "the summary counts it" grep -q "not reached .*; 1 no path of at most [0-9]* blocks reaches (bounded checker)" "$T/bound.out"
check "stats.json counts it" [ "$(stat goals.not_reached.bmc_bound "$T/bound")" = 1 ]

run array bmc_array.c --prove bmc
check "memory it does not model: it says so" grep -q "bounded checker claims nothing: cannot model" "$T/array.out"
check "and claims nothing, runs nothing" \
  [ "$(goal array '.status=="unreachable"')" = 0 -a "$(stat bmc.inputs_run "$T/array")" = 0 ]

# with a time budget, auto runs Eva and the checker side by side in one
# directory; the run stops once every goal is covered or proven
"$CTESTGEN" run "$PROGS/bmc_find.c" --strategy random --time 30 --seed 1 -o "$T/auto" \
  >"$T/auto.out" 2>&1 || fail "auto run: $(tail -3 "$T/auto.out")"
check "auto with a time budget: both provers, the checker's result read" \
  grep -q "proofs .*bounded checker (.*every execution ends within them" "$T/auto.out"
check "auto: the run stops when every goal is covered or proven" \
  grep -q "stopped: every reachable goal covered" "$T/auto.out"

"$CTESTGEN" run "$EX/tree_parse.c" --prove bmc --max-execs 50 --seed 1 -o "$T/tp" >"$T/tp.out" 2>&1 ||
  fail "run on tree_parse.c: $(tail -3 "$T/tp.out")"
check "--prove bmc on a program that is not a Test-Comp harness: it says why not" \
  grep -q "bounded checker: none, it needs a Test-Comp harness" "$T/tp.out"

"$CTESTGEN" run "$PROGS/bmc_find.c" --prove nope -o "$T/bad" >"$T/bad.out" 2>&1
rc=$?
check "a bad --prove value: exit 2, naming bmc" [ $rc = 2 ]
check "its message lists the values" grep -q "auto, eva, bmc or none" "$T/bad.out"
finish
