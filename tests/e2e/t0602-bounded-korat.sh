#!/usr/bin/env bash
# t0602-bounded-korat: Korat mode.  Binary trees with at most 3 nodes: the
# 1+1+2+5 = 9 non-isomorphic trees, each run through height(); binary search
# trees over 1..3: 15 structures x 7 keys = 105 runs, and the insertion bug
# is found and replays; doubly linked lists (15) and sorted lists (20); bad
# finitisations give one-line errors naming the line.
# LABELS: asan
. "$(dirname "$0")/lib.sh"
K="$EX/korat"
# runs of the strategy: every execution but those minimising crashes
strategy_runs() { echo $(( $(stat execs "$1") - $(stat crashes.min_execs "$1") )); }

korat() { "$CTESTGEN" run "$K/$1.c" --strategy bounded --korat "$K/$1.fin" -o "$T/$1" 2>"$T/$1.err" >/dev/null; }

check "bintree run exits 0" korat bintree
check "bintree: 9 structures" [ "$(stat bounded.korat.structures "$T/bintree")" = 9 ]
check "bintree: 9 runs of height" [ "$(stat execs "$T/bintree")" = 9 ]
check "bintree: printed" grep -q "9 valid non-isomorphic structures, 9 runs of height; the space is exhausted" "$T/bintree.err"
check "bintree: far fewer candidates than 4^7" [ "$(stat bounded.korat.candidates "$T/bintree")" -lt 1000 ]
check "bintree: the harness never rejects a structure" [ "$(stat runs.assume "$T/bintree")" = 0 ]

check "bst run exits 0" korat bst
check "bst: 15 structures" [ "$(stat bounded.korat.structures "$T/bst")" = 15 ]
check "bst: 15 x 7 runs of bst_insert" [ "$(strategy_runs "$T/bst")" = 105 ]
check "bst: the duplicate-key bug is found" [ "$(stat errors.reached "$T/bst")" = 1 ]
check "bst: 30 runs insert a present key" [ "$(stat runs.error "$T/bst")" = 30 ]
"$CTESTGEN" replay "$T/bst" "$T/bst/bounded/korat_harness.c" "$T/bst/bounded/korat_glue.c" >"$T/replay.txt" 2>&1
check "bst: replay of the harness reaches reach_error" grep -q "reach_error: reached" "$T/replay.txt"
check "bst: the generated harness adds no branch" grep -q "korat_harness.c: branches 0/0" "$T/replay.txt"
check "bst: the suite validates" xmllint --noout --valid --nonet --path "$DTD" "$T/bst/test-suite"/*.xml

check "dlist run exits 0" korat dlist
check "dlist: 15 structures" [ "$(stat bounded.korat.structures "$T/dlist")" = 15 ]
check "sorted run exits 0" korat sorted
check "sorted: 20 structures" [ "$(stat bounded.korat.structures "$T/sorted")" = 20 ]

# --function instead of a function line
grep -v '^function' "$K/bintree.fin" >"$T/nofn.fin"
"$CTESTGEN" run "$K/bintree.c" --strategy bounded --korat "$T/nofn.fin" --function height -o "$T/fn" -q
check "--function names the function under test" [ "$(stat execs "$T/fn")" = 9 ]
"$CTESTGEN" run "$K/bintree.c" --strategy bounded --korat "$T/nofn.fin" -o "$T/nofn" 2>"$T/nofn.err"
check "no function: refused with a hint" grep -q "no function under test; add 'function NAME(args)' or pass --function NAME" "$T/nofn.err"

printf 'struct node 3\nfield node.left => node\nrepok repOk(node *r)\n' >"$T/bad.fin"
"$CTESTGEN" run "$K/bintree.c" --strategy bounded --korat "$T/bad.fin" -o "$T/bad" 2>"$T/bad.err"
check "bad finitisation exits non-zero" [ $? != 0 ]
check "bad finitisation: one line naming the line" bash -c "[ \$(wc -l <'$T/bad.err') = 1 ] && grep -q 'bad.fin:2: expected' '$T/bad.err'"
printf 'struct node 3\nfield node.nosuch -> node\nrepok repOk(node *r)\nfunction height(r)\n' >"$T/bad2.fin"
"$CTESTGEN" run "$K/bintree.c" --strategy bounded --korat "$T/bad2.fin" -o "$T/bad2" 2>"$T/bad2.err"
check "unknown field: refused" [ $? != 0 ]
finish
