#!/usr/bin/env bash
# t0601-bounded-grammar: grammar mode.  The seed's binary-tree grammar up to
# 17 bytes (trees of at most 5 leaves: 1+1+2+5+14 = 23 strings) on a
# libFuzzer target finds its bug; --filter runs only the strings a predicate
# of the program accepts (9 balanced trees, 14 rejected); a Test-Comp harness
# reads the strings as NUL-terminated chars; in seed order the program gets
# the seed's first trees in the seed's order; the HTML grammar's documents
# parse without error; a malformed grammar gives file:line:col.
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
# a filter that takes its helper down: killed on one string, stopped (a
# hang) on another; the helper is replaced, those strings count as
# rejected, and the run goes on with the others
{ cat "$EX/tree_parse.c"; cat <<'EOC'
#include <signal.h>
#include <string.h>
#include <unistd.h>
int rough(const char *s)
{
    if (!strcmp(s, "(x x)"))
        kill(getppid(), SIGKILL);
    if (!strcmp(s, "(x (x x))"))
        kill(getppid(), SIGSTOP);
    return balanced(s);
}
EOC
} >"$T/rough.c"
"$CTESTGEN" run "$T/rough.c" --strategy bounded --grammar "$G" --grammar-max-len 17 --filter rough -o "$T/r" 2>"$T/r.err" >/dev/null
check "helper killed and hung: the run ends well" [ $? = 0 ]
check "helper killed and hung: replaced twice" grep -q "the filter helper failed 2 times" "$T/r.err"
check "helper killed and hung: the other balanced strings run (9 - 2)" [ "$(strategy_runs "$T/r")" = 7 ]
check "helper killed and hung: no helper left" sh -c "! pgrep -f '$T/r/bounded/filte[r]' >/dev/null"
"$CTESTGEN" run "$EX/tree_parse.c" --strategy bounded --grammar "$G" --filter no_such_fn -o "$T/nf" 2>"$T/nf.err" >/dev/null
check "unknown filter function: refused" [ $? != 0 ]
check "unknown filter function: message" grep -q "helper program does not compile" "$T/nf.err"

"$CTESTGEN" run "$PROGS/chars_tree.c" --strategy bounded --grammar "$G" --grammar-max-len 13 -o "$T/tc" -q
check "Test-Comp harness: 9 trees of at most 4 leaves" [ "$(strategy_runs "$T/tc")" = 9 ]
check "Test-Comp harness: the left comb reaches the error" [ "$(stat errors.reached "$T/tc")" = 1 ]

# seed order runs too (tiny grammar)
"$CTESTGEN" run "$EX/tree_parse.c" --strategy bounded --grammar "$G" --grammar-order seed --max-execs 9 -o "$T/s" -q
check "seed order: 9 executions" [ "$(stat execs "$T/s")" = 9 ]

# What the program receives, in execution order (programs/grammar_trace.c
# writes every input to a new file of $TRACE_DIR): in seed order, the seed's
# first complete trees ("Unicamente Terminales"), in the seed's order
# (--no-replay-check, --no-explain: the replay after the run, and the
# suite's run with distances that explains the goals not covered, would run
# the program again).
mkdir -p "$T/trace"
TRACE_DIR="$T/trace" "$CTESTGEN" run "$PROGS/grammar_trace.c" --strategy bounded --grammar "$G" \
    --grammar-order seed --max-execs 9 -o "$T/st" -q --no-replay-check --no-explain
got=$(for f in "$T/trace"/*; do cat "$f"; echo; done)
want=$(printf '%s\n' 'x' '(x x)' '((x x) x)' '(x (x x))' '((x x) (x x))' '(((x x) x) x)' \
    '((x (x x)) x)' '(x ((x x) x))' '(x (x (x x)))')
check "seed order: the seed's first 9 trees in the seed's order" [ "$got" = "$want" ]

# The seed's HTML grammar: every document produced is well-formed XML and
# libxml2's HTML parser reports no error (as tests/unit/test_gprod.c checks).
mkdir -p "$T/html"
TRACE_DIR="$T/html" "$CTESTGEN" run "$PROGS/grammar_trace.c" --strategy bounded \
    --grammar "$EX/grammars/html.bnf" --max-execs 40 -o "$T/h" -q --no-replay-check --no-explain
check "html: 40 documents produced" [ "$(ls "$T/html" | wc -l)" = 40 ]
check "html: every document is well-formed XML" xmllint --noout "$T/html"/*
check "html: the HTML parser reports no error" bash -c "[ -z \"\$(xmllint --html --noout '$T/html'/* 2>&1)\" ]"
check "html: every document is HTML 4.01 strict" bash -c "[ \$(grep -l 'DTD HTML 4.01//EN' '$T/html'/* | wc -l) = 40 ]"
printf '<HTML><BODY><FOO></FOO></BODY></HTML>' >"$T/bad.html"
check "html: the check can fail" bash -c "[ -n \"\$(xmllint --html --noout '$T/bad.html' 2>&1)\" ]"

printf '<a> ::= "x" <b>\n<b> := "y"\n' >"$T/bad.bnf"
"$CTESTGEN" run "$EX/tree_parse.c" --strategy bounded --grammar "$T/bad.bnf" -o "$T/bad" 2>"$T/bad.err"
check "malformed grammar exits non-zero" [ $? != 0 ]
check "malformed grammar: file:line:col and what was expected" grep -q "bad.bnf:2:5: expected '::='" "$T/bad.err"
check "malformed grammar: nothing was built or run" [ ! -e "$T/bad/stats.json" ]
finish
