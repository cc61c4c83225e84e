#!/usr/bin/env bash
# t0601-bounded-grammar: grammar mode.  The seed's binary-tree grammar up to
# 17 bytes (trees of at most 5 leaves: 1+1+2+5+14 = 23 strings) on a
# libFuzzer target finds its bug; --filter runs only the strings a predicate
# of the program accepts (9 balanced trees, 14 rejected); a Test-Comp harness
# reads the strings as NUL-terminated chars; a malformed grammar gives
# file:line:col.
# LABELS: asan
. "$(dirname "$0")/lib.sh"
G="$EX/grammars/bintree.bnf"
# runs of the strategy: every execution but those minimising crashes
strategy_runs() { echo $(( $(stat execs "$1") - $(stat crashes.min_execs "$1") )); }

"$CTESTGEN" run "$EX/tree_parse.c" --strategy bounded --grammar "$G" --grammar-max-len 17 -o "$T/a" 2>"$T/a.err" >/dev/null
check "grammar run exits 0" [ $? = 0 ]
check "23 strings executed" [ "$(strategy_runs "$T/a")" = 23 ]
check "the language up to 17 bytes is exhausted" grep -q "23 strings executed, 0 rejected by the filter.*exhausted" "$T/a.err"
check "the right comb reaches the error" [ "$(stat errors.reached "$T/a")" = 1 ]
check "a crash file holds the comb" grep -rqF "(x (x (x (x x))))" "$T/a/crashes"
"$CTESTGEN" replay "$T/a" "$EX/tree_parse.c" >"$T/replay.txt" 2>&1
check "replay reaches reach_error" grep -q "reach_error: reached" "$T/replay.txt"

"$CTESTGEN" run "$EX/tree_parse.c" --strategy bounded --grammar "$G" --grammar-max-len 17 --filter balanced -o "$T/f" 2>"$T/f.err" >/dev/null
check "filter: 9 strings executed" [ "$(stat execs "$T/f")" = 9 ]
check "filter: 14 rejected" [ "$(stat bounded.rejected "$T/f")" = 14 ]
check "filter: the unbalanced comb is never run" [ "$(stat errors.reached "$T/f")" = 0 ]
"$CTESTGEN" run "$EX/tree_parse.c" --strategy bounded --grammar "$G" --filter no_such_fn -o "$T/nf" 2>"$T/nf.err" >/dev/null
check "unknown filter function: refused" [ $? != 0 ]
check "unknown filter function: message" grep -q "helper program does not compile" "$T/nf.err"

"$CTESTGEN" run "$PROGS/chars_tree.c" --strategy bounded --grammar "$G" --grammar-max-len 13 -o "$T/tc" -q
check "Test-Comp harness: 9 trees of at most 4 leaves" [ "$(strategy_runs "$T/tc")" = 9 ]
check "Test-Comp harness: the left comb reaches the error" [ "$(stat errors.reached "$T/tc")" = 1 ]

# seed order runs too (tiny grammar)
"$CTESTGEN" run "$EX/tree_parse.c" --strategy bounded --grammar "$G" --grammar-order seed --max-execs 9 -o "$T/s" -q
check "seed order: 9 executions" [ "$(stat execs "$T/s")" = 9 ]

printf '<a> ::= "x" <b>\n<b> := "y"\n' >"$T/bad.bnf"
"$CTESTGEN" run "$EX/tree_parse.c" --strategy bounded --grammar "$T/bad.bnf" -o "$T/bad" 2>"$T/bad.err"
check "malformed grammar exits non-zero" [ $? != 0 ]
check "malformed grammar: file:line:col and what was expected" grep -q "bad.bnf:2:5: expected '::='" "$T/bad.err"
check "malformed grammar: nothing was built or run" [ ! -e "$T/bad/stats.json" ]
finish
