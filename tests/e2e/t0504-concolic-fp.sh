#!/usr/bin/env bash
# t0504-concolic-fp: float queries that Z3's IEEE arithmetic does not
# answer within the solver timeout (x*x*y within 1e-6 of 7.3, then
# x*y > 4.1) are answered by the solver chain's real relaxation (layer 5,
# solver_fp.c): concolic reaches the error within a fixed budget without a
# solver timeout; with --no-fp-relax the queries time out and the error is
# not reached; gcc's replay agrees.
# LABELS: asan
. "$(dirname "$0")/lib.sh"
P="$CTG_SOURCE_DIR/tests/e2e/programs/fp_product.c"
"$CTESTGEN" run "$P" --strategy concolic --solver-timeout 50 --max-execs 60 --seed 1 -q -o "$T/a" 2>"$T/a.err" \
  || fail "concolic on fp_product: $(cat "$T/a.err")"
check "the relaxation answers the float queries ($(stat solver.fp_sat "$T/a") of $(stat solver.fp_tries "$T/a"))" \
  [ "$(stat solver.fp_sat "$T/a")" -ge 2 ]
check "no query timed out ($(stat solver.timeout "$T/a"))" [ "$(stat solver.timeout "$T/a")" = 0 ]
check "the error is reached" [ "$(stat errors.reached "$T/a")" = 1 ]
check "every edge ($(stat edges.covered "$T/a")/$(stat edges.total "$T/a"))" \
  [ "$(stat edges.covered "$T/a")" = "$(stat edges.total "$T/a")" ]
check "gcc's replay reaches the error too" [ "$(stat replay.error_reached "$T/a")" = 1 ]
"$CTESTGEN" run "$P" --strategy concolic --solver-timeout 50 --max-execs 60 --seed 1 --no-fp-relax \
  -q -o "$T/b" 2>/dev/null || fail "concolic --no-fp-relax failed"
check "without it: no relaxation ran" [ "$(stat solver.fp_tries "$T/b")" = 0 ]
check "without it: Z3 times out ($(stat solver.timeout "$T/b"))" [ "$(stat solver.timeout "$T/b")" -ge 1 ]
check "without it: the error is not reached" [ "$(stat errors.reached "$T/b")" = 0 ]
finish
