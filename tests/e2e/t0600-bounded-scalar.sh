#!/usr/bin/env bash
# t0600-bounded-scalar: small scope (--strategy bounded, scalar mode).
# triangle.c over 0..4: all 125 inputs run once (executions == distinct
# prefixes, printed), and every branch reachable in that domain is covered:
# replay's gcov count equals a brute-force gcov count over all 125 inputs.
# A program that stops early is not extended; a libFuzzer target gets every
# byte string over the char domain; bad options give one-line errors.
# LABELS: asan
. "$(dirname "$0")/lib.sh"

"$CTESTGEN" run "$EX/triangle.c" --strategy bounded --domain int=0..4 -o "$T/tri" 2>"$T/tri.err" >"$T/tri.out"
check "triangle run exits 0" [ $? = 0 ]
check "prints executions == distinct prefixes" grep -q "125 executions, 125 distinct value prefixes explored" "$T/tri.err"
check "stats: 125 executions" [ "$(stat execs "$T/tri")" = 125 ]
check "stats: 125 distinct prefixes" [ "$(stat bounded.distinct_prefixes "$T/tri")" = 125 ]
check "stopped because the space was exhausted" grep -q "stopped: strategy finished" "$T/tri.out"

# Brute force: the program run on every input of 0..4 under gcov.
cat >"$T/bf.c" <<'EOC'
static int vals[3], pos;
int __VERIFIER_nondet_int(void) { return vals[pos++]; }
int prog_main(void);
int main(void)
{
    for (int a = 0; a < 5; a++)
        for (int b = 0; b < 5; b++)
            for (int c = 0; c < 5; c++) {
                vals[0] = a, vals[1] = b, vals[2] = c, pos = 0;
                prog_main();
            }
    return 0;
}
EOC
mkdir -p "$T/gcov" && cp "$EX/triangle.c" "$T/gcov/"
(cd "$T/gcov" && gcc --coverage -Dmain=prog_main -c triangle.c && gcc --coverage ../bf.c triangle.o -o bf && ./bf && gcov -b triangle.c >gcov.txt) >/dev/null 2>&1
bf=$(sed -n 's/^Taken at least once:\([0-9.]*\)% of \([0-9]*\)/\1 \2/p' "$T/gcov/gcov.txt" | head -1 |
    awk '{printf "%d/%d", $1 * $2 / 100 + 0.5, $2}')
"$CTESTGEN" replay "$T/tri" "$EX/triangle.c" >"$T/replay.txt" 2>&1
ours=$(sed -n 's/^branches: \([0-9]*\/[0-9]*\).*/\1/p' "$T/replay.txt")
check "brute force gcov ran ($bf)" [ -n "$bf" ]
check "every branch reachable in 0..4 covered (replay $ours, brute force $bf)" [ "$ours" = "$bf" ]

# Early stop: a <= 0 ends the run, so its prefixes are never extended.
"$CTESTGEN" run "$PROGS/early_stop.c" --strategy bounded --keep-going --domain int=-1..2 --domain "char=0,'a'" -o "$T/es" -q
# distinct consumed sequences: a in {0,-1} end at once (2); a in {1,2}: c = 'a'
# ends (1), c = 0 reads b in {0,1,-1,2} (4): 2 + 2 * (1 + 4) = 12 of 4*2*4 = 32
check "early stop: 12 executions" [ "$(stat execs "$T/es")" = 12 ]
check "early stop: executions == distinct prefixes" [ "$(stat bounded.distinct_prefixes "$T/es")" = 12 ]

# libFuzzer target: strings over 4 characters of up to 2 bytes: 1 + 4 + 16.
"$CTESTGEN" run "$EX/tree_parse.c" --strategy bounded --scope-max-len 2 --domain "chars='x','(',' ',')'" -o "$T/lf" -q
check "libFuzzer: 21 byte strings" [ "$(stat execs "$T/lf")" = 21 ]

# Errors: one line, non-zero exit.
"$CTESTGEN" run "$EX/triangle.c" --strategy bounded --domain int=1.. -o "$T/bad" 2>"$T/bad.err"
check "bad --domain exits non-zero" [ $? != 0 ]
check "bad --domain: one line naming the option" bash -c "[ \$(wc -l <'$T/bad.err') = 1 ] && grep -q -- '--domain int=1..' '$T/bad.err'"
"$CTESTGEN" run "$EX/triangle.c" --strategy bounded --mode grammar -o "$T/bad2" 2>"$T/bad2.err"
check "--mode grammar without --grammar is refused" grep -q "needs --grammar FILE" "$T/bad2.err"
finish
