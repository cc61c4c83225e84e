#!/usr/bin/env bash
# t0127-prove: proofs of unreachable goals (issue 58) with Frama-C's Eva,
# each run with an execution budget and --time 0 (the proof is waited for,
# so the answer does not depend on the machine's speed).  A program whose
# error call and helper only an impossible branch leads to: the error is
# proven unreachable (summary, stats.json's final.goals with the method),
# the helper's edges too, and with coverage-error-call the run stops at
# once.  Programs whose error needs what gcc -O0 does and C leaves open
# (signed wrap-around, an uninitialised local, a read past an array): no
# claim.  --prove none proves nothing; a bad --prove is a one-line error.
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
  [ "$n_helper" -ge 2 ] && [ "$(goal '.status=="unreachable" and (.goal|startswith("helper"))' "$T/dead")" = "$n_helper" ]
check "final.unreachable counts them ($((n_helper + 1)))" [ "$(jq .final.unreachable "$T/dead/stats.json")" = $((n_helper + 1)) ]
check "no unreachable goal is covered" [ "$(goal '.status=="unreachable" and .status=="covered"' "$T/dead")" = 0 ]
check "main's goals are not claimed" [ "$(goal '(.goal|startswith("main")) and .status=="unreachable"' "$T/dead")" = 0 ]
"$CTESTGEN" run "$D" --max-execs 2000 --time 60 --seed 1 --property coverage-error-call -o "$T/deadc" \
  >"$T/deadc.out" 2>&1 || fail "coverage-error-call run: $(tail -3 "$T/deadc.out")"
check "coverage-error-call: the proof ends the run" \
  grep -q "stopped: the error call is proven unreachable" "$T/deadc.out"

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

"$CTESTGEN" run "$D" --max-execs 500 --seed 1 --prove none -o "$T/none" >"$T/none.out" 2>&1
check "--prove none: no proof" [ "$(jq .final.unreachable "$T/none/stats.json")" = 0 ]
"$CTESTGEN" run "$D" --prove sometimes -o "$T/bad" >"$T/bad.out" 2>&1
rc=$?
check "bad --prove: exit 2 ($rc)" [ "$rc" = 2 ]
check "bad --prove: one line naming the option" grep -q -- "--prove: must be auto, eva or none" "$T/bad.out"
finish
