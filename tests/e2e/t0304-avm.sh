#!/usr/bin/env bash
# t0304-avm: MIO's focused phase runs the alternating variable method: on
# floating-point conditions met only near irrational points (a square
# within 1e-9 of 2, a cubic's root within 1e-10) mio covers every edge in a
# fixed budget, and without the local search (--avm 0) it does not; the
# replay check compares the program's own branches (not function mode's
# generated driver), so a full run gives no warning; bad values are one line.
# LABELS: asan
. "$(dirname "$0")/lib.sh"
P="$CTG_SOURCE_DIR/bench/sbst/programs/fpnear.c"
"$CTESTGEN" run "$P" --function fp_near --strategy mio --max-execs 6000 --seed 1 -q -o "$T/a" 2>"$T/a.err" \
  || fail "mio on fp_near: $(cat "$T/a.err")"
check "with the local search: every edge ($(stat edges.covered "$T/a")/$(stat edges.total "$T/a"))" \
  [ "$(stat edges.covered "$T/a")" = "$(stat edges.total "$T/a")" ]
check "local searches covered goals" [ "$(stat mio.avm_covered "$T/a")" -ge 2 ]
check "no replay warning: the driver's branches are not the program's" bash -c "! grep -q \"gcc's replay covers\" '$T/a.err'"
c=$("$CTESTGEN" replay "$T/a" "$P" | sed -n "s|^  $P: branches \([0-9]*\)/\([0-9]*\).*|\1 \2|p")
check "gcc's replay covers every branch of fp_near ($c)" [ "${c% *}" = "${c#* }" ]
"$CTESTGEN" run "$P" --function fp_near --strategy mio --avm 0 --max-execs 6000 --seed 1 -q -o "$T/b" 2>/dev/null \
  || fail "mio --avm 0 failed"
check "without it: fewer edges ($(stat edges.covered "$T/b"))" [ "$(stat edges.covered "$T/b")" -lt "$(stat edges.covered "$T/a")" ]
check "without it: no local search ran" [ "$(stat mio.avm_runs "$T/b")" = 0 ]
"$CTESTGEN" run "$P" --function fp_near --strategy mio --avm 2 --max-execs 10 -q -o "$T/x" 2>"$T/x.err"
check "--avm 2: fails" [ $? != 0 ]
check "--avm 2: one line naming the option" bash -c "[ \$(wc -l < '$T/x.err') = 1 ] && grep -q -- '--avm' '$T/x.err'"
finish
