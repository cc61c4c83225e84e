#!/usr/bin/env bash
# t0501-concolic-deadbeef: the error of programs/deadbeef.c needs
# x == 0xdeadbeef and 3*y + 5*z == 1234 (y > 100): the concolic strategy
# reaches it within 10 executions in every search order; random testing
# with the same budget does not.
# LABELS: asan
. "$(dirname "$0")/lib.sh"

for s in generational dfs bfs random-branch; do
    "$CTESTGEN" run "$PROGS/deadbeef.c" --strategy concolic --search "$s" --max-execs 10 \
        --seed 1 -o "$T/$s" -q || fail "$s: run exits 0"
    check "$s: error reached within 10 executions" [ "$(stat errors.reached "$T/$s")" = 1 ]
    check "$s: at most 10 executions" [ "$(stat execs "$T/$s")" -le 10 ]
    check "$s: solver answered sat" [ "$(stat solver.sat "$T/$s")" -ge 1 ]
done
check "the error test is in the suite" grep -lq 'coversError="true"' "$T/generational/test-suite"/test-*.xml
"$CTESTGEN" replay "$T/generational" "$PROGS/deadbeef.c" >"$T/replay.txt" || fail "replay exits 0"
check "replay (gcc) reaches the error too" grep -q "reach_error: reached" "$T/replay.txt"

"$CTESTGEN" run "$PROGS/deadbeef.c" --strategy random --max-execs 10 --seed 1 -o "$T/random" -q
check "random testing does not (10 executions)" [ "$(stat errors.reached "$T/random")" = 0 ]
finish
