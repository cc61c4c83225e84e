#!/usr/bin/env bash
# t0127-prove: proofs of unreachable goals (issue 58) with Frama-C's Eva,
# each run with an execution budget and --time 0 (the proof is waited for,
# so the answer does not depend on the machine's speed).  A program whose
# error call and helper only an impossible branch leads to: the error is
# proven unreachable (summary, stats.json's final.goals with the method),
# the helper's edges too, and with coverage-error-call the run stops at
# once.  A program without an error function: the error goal is
# unreachable, and coverage-error-call ends at once; one that calls it
# through a pointer: no such claim.  Programs whose error needs what gcc -O0 does and C leaves open
# (signed wrap-around, an uninitialised local, a read past an array): no
# claim.  --prove none proves nothing; a bad --prove is a one-line error.
# LABELS: asan
. "$(dirname "$0")/lib.sh"
command -v frama-c >/dev/null || { echo "skip: frama-c not installed (frama-c-base)"; exit 77; }
export CTESTGEN_CACHE="$T/cache"
goal() { jq -r "[.final.goals[] | select($1)] | length" "$2/stats.json"; }

D="$PROGS/prove_dead.c"
"$CTESTGEN" run "$D" --max-execs 2000 --seed 1 -o "$T/dead" >"$T/dead.out" 2>&1 \
  || fail "run on prove_dead.c: $(tail -3 "$T/dead.out")"
check "dead error: the summary says it is proven unreachable" \
  grep -q "errors reached    0/1 (1 proven unreachable)" "$T/dead.out"
check "dead error: final.goals has it unreachable, with the method" \
  [ "$(goal '.kind=="error" and .status=="unreachable" and (.method|test("Eva"))' "$T/dead")" = 1 ]
n_helper=$(goal '.kind=="branch" and (.goal|startswith("helper"))' "$T/dead")
check "dead helper: its $n_helper edges are unreachable" \
  [ "$n_helper" -ge 2 -a "$(goal '.status=="unreachable" and (.goal|startswith("helper"))' "$T/dead")" = "$n_helper" ]
check "the edge into the error call's block is unreachable too (main:1:T)" \
  [ "$(goal '.goal=="main:1:T" and .status=="unreachable"' "$T/dead")" = 1 ]
check "final.unreachable counts them ($((n_helper + 2)))" [ "$(jq .final.unreachable "$T/dead/stats.json")" = $((n_helper + 2)) ]
check "no unreachable goal is covered" [ "$(goal '.status=="unreachable" and .status=="covered"' "$T/dead")" = 0 ]
check "no other goal of main is claimed" [ "$(goal '(.goal|startswith("main")) and .status=="unreachable"' "$T/dead")" = 1 ]
check "an uncovered goal says why (closest test or never ran)" \
  [ "$(goal '.status=="not-reached" and (.why|test("closest|never ran|other way"))' "$T/dead")" = "$(goal '.status=="not-reached"' "$T/dead")" ]
"$CTESTGEN" run "$D" --max-execs 100000000 --time 300 --seed 1 --property coverage-error-call -o "$T/deadc" \
  >"$T/deadc.out" 2>&1 || fail "coverage-error-call run: $(tail -3 "$T/deadc.out")"
check "coverage-error-call: the proof ends the run (not a budget)" \
  grep -q "stopped: the error call is proven unreachable" "$T/deadc.out"

C="$PROGS/prove_nocall.c"
"$CTESTGEN" run "$C" --max-execs 100000 --seed 1 --property coverage-error-call -o "$T/nocall" \
  >"$T/nocall.out" 2>&1 || fail "run on prove_nocall.c: $(tail -3 "$T/nocall.out")"
check "no error function: coverage-error-call ends at once" \
  grep -q "stopped: the program calls no error function" "$T/nocall.out"
check "no error function: final.goals has reach_error() unreachable" \
  [ "$(goal '.kind=="error" and .status=="unreachable" and (.method|test("no call"))' "$T/nocall")" = 1 ]
"$CTESTGEN" run "$PROGS/prove_escape.c" --max-execs 3000 --seed 1 --property coverage-error-call \
  -o "$T/escape" >"$T/escape.out" 2>&1 || fail "run on prove_escape.c: $(tail -3 "$T/escape.out")"
check "an error function called through a pointer: no such claim" \
  [ "$(goal '.kind=="error" and .status=="unreachable" and (.method|test("no call"))' "$T/escape")" = 0 ]

X="$CTG_SOURCE_DIR/examples/dead_code.c"
"$CTESTGEN" run "$X" --strategy fuzz --max-execs 300 --seed 1 -o "$T/ex" >"$T/ex.out" 2>&1 \
  || fail "run on examples/dead_code.c: $(tail -3 "$T/ex.out")"
check "dead_code.c: the clamped mode's 'mode > 5' side is unreachable (it leads to a call of an unreachable function)" \
  [ "$(goal '.line==26 and .status=="unreachable"' "$T/ex")" = 1 ]
check "dead_code.c: the magic value's side is not reached, with the closest test" \
  [ "$(goal '.line==28 and .status=="not-reached" and (.why|test("closest: test-"))' "$T/ex")" = 1 ]
"$CTESTGEN" report "$T/ex" >/dev/null 2>&1 || fail "report on dead_code.c"
check "report: the legacy decoder's line is grey (not run, proven unreachable)" \
  grep -q 'class="line dead" id="L15"' "$T/ex/report/index.html"
check "report: the goals column names both kinds" \
  bash -c "grep -q 'unreachable (abstract interpretation' '$T/ex/report/index.html' && grep -q 'not reached (closest: test-' '$T/ex/report/index.html'"

"$CTESTGEN" run "$D" --jobs 2 --max-execs 4000 --seed 1 -o "$T/jobs" >"$T/jobs.out" 2>&1 \
  || fail "--jobs 2 run: $(tail -3 "$T/jobs.out")"
check "--jobs 2: worker 0's proof reaches the merged summary" \
  grep -q "errors reached    0/1 (1 proven unreachable)" "$T/jobs.out"
check "--jobs 2: and the merged stats.json" \
  [ "$(goal '.kind=="error" and .status=="unreachable"' "$T/jobs")" = 1 ]

for p in prove_wrap prove_uninit; do
  "$CTESTGEN" run "$PROGS/$p.c" --max-execs 2000 --seed 1 -o "$T/$p" >"$T/$p.out" 2>&1 \
    || fail "run on $p.c: $(tail -3 "$T/$p.out")"
  check "$p: no error call claimed unreachable" \
    [ "$(goal '.kind=="error" and .status=="unreachable"' "$T/$p")" = 0 ]
  check "$p: the summary says why ($(grep -o 'proofs .*' "$T/$p.out" | cut -c1-70))" \
    grep -q "proofs            Frama-C Eva" "$T/$p.out"
done
check "prove_wrap: ctestgen reaches the error the wrap leads to" [ "$(stat errors.reached "$T/prove_wrap")" = 1 ]
check "prove_uninit: the read past the array voids the analysis" grep -q "claims nothing: .*alarm" "$T/prove_uninit.out"

# a prover that hangs off the CPU (its CPU limit never comes): the
# wall-time guard (2 x --prove-time + 10 s) stops it and the run ends
mkdir -p "$T/fakebin"
printf '#!/bin/sh\nexec sleep 617\n' >"$T/fakebin/frama-c"
chmod +x "$T/fakebin/frama-c"
PATH="$T/fakebin:$PATH" "$CTESTGEN" run "$D" --max-execs 200 --seed 1 --prove-time 1 -o "$T/hang" \
  >"$T/hang.out" 2>&1 || fail "run with a hanging prover: $(tail -3 "$T/hang.out")"
check "a hanging prover is stopped and claims nothing" \
  grep -q "claims nothing: the analysis did not finish within its time" "$T/hang.out"
check "no prover process is left" bash -c "! pgrep -f '^sleep 617$' >/dev/null"

"$CTESTGEN" run "$D" --max-execs 500 --seed 1 --prove none -o "$T/none" >"$T/none.out" 2>&1
check "--prove none: no proof" [ "$(jq .final.unreachable "$T/none/stats.json")" = 0 ]
"$CTESTGEN" run "$D" --prove sometimes -o "$T/bad" >"$T/bad.out" 2>&1
rc=$?
check "bad --prove: exit 2 ($rc)" [ "$rc" = 2 ]
check "bad --prove: one line naming the option" grep -q -- "--prove: must be auto, eva, bmc or none" "$T/bad.out"
finish
