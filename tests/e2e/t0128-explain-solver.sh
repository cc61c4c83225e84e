#!/usr/bin/env bash
# t0128-explain-solver: a goal not reached says what the solver answered
# when concolic asked for a path into it (issue 58, "what stopped the
# engines").  explain_unsat.c's inner branch contradicts the outer one: with
# the prover off, the branch side and the error call stay not reached, and
# each says "unsat" (stats.json's why and solver counts, the summary's
# not-reached line); covered goals carry no solver counts.
# LABELS: asan
. "$(dirname "$0")/lib.sh"
export CTESTGEN_CACHE="$T/cache"
P="$PROGS/explain_unsat.c"
"$CTESTGEN" run "$P" --strategy concolic --prove none --max-execs 100 --seed 1 -o "$T/o" >"$T/out" 2>&1 ||
  fail "run on explain_unsat.c: $(tail -3 "$T/out")"
goal() { jq -r "[.final.goals[] | select($1)] | length" "$T/o/stats.json"; }
check "the contradicting side is not reached" [ "$(goal '.goal=="main:1:T" and .status=="not-reached"')" = 1 ]
check "it says the solver answered unsat, never sat" \
  [ "$(goal '.goal=="main:1:T" and .solver.unsat >= 1 and .solver.sat == 0 and (.why|test("solver, asked for a path into it: unsat [0-9]+$"))')" = 1 ]
check "the error call behind it says so too" \
  [ "$(goal '.kind=="error" and .status=="not-reached" and .solver.unsat >= 1')" = 1 ]
check "covered goals carry no solver counts" [ "$(goal '.status=="covered" and has("solver")')" = 0 ]
check "the summary counts it" grep -q "not reached .*; 1 the solver found unsat on every path it was asked for" "$T/out"
check "stats.json counts it" [ "$(stat goals.not_reached.solver_unsat "$T/o")" = 1 ]
finish
