#!/usr/bin/env bash
# t0116-stdin-targets: a program whose main reads stdin (scanf, getchar)
# is a byte-input target: the test's bytes are its stdin, the fuzzer covers
# it, stats.json says input "stdin", and gcc's replay (suite and raw
# corpus) feeds the same bytes and agrees with the engine.  `-- ARGS @@`
# passes the test as a file named in argv, as AFL++ does; replay reuses the
# recorded arguments.  A program that reads stdin and calls
# __VERIFIER_nondet_* gets a warning naming the mix.  Concolic execution
# solves for bytes read with getchar and fread.  Such a target's tests are
# its corpus and OUT/regression.c, no Test-Comp XML: the regression file
# compiles with the program and passes (stdin and @@), and fails when the
# program changes; replay, resume and a replay timeout work on the corpus.
# LABELS: asan
. "$(dirname "$0")/lib.sh"
export CTESTGEN_CACHE="$T/cache"

P="$PROGS/stdin_words.c"
"$CTESTGEN" run "$P" --strategy fuzz --max-execs 20000 --seed 1 -o "$T/w" >"$T/w.out" 2>&1 \
  || fail "run on a stdin target: $(tail -3 "$T/w.out")"
check "stdin: recorded as the input" [ "$(jq -r .info.input "$T/w/stats.json")" = stdin ]
check "stdin: the fuzzer covers most edges ($(stat edges.covered "$T/w")/14)" [ "$(stat edges.covered "$T/w")" -ge 10 ]
check "stdin: gcc's replay agrees with the engine" \
  [ "$(stat replay.branches_covered "$T/w")" -ge "$(( $(stat edges.covered "$T/w") - 1 ))" ]
check "stdin: no replay warning" bash -c "! grep -q \"gcc's replay covers\" '$T/w.out'"
c=$("$CTESTGEN" replay --corpus "$T/w/corpus" "$P" | sed -n "s|^  $P: branches \([0-9]*\)/.*|\1|p")
check "stdin: the raw corpus replays as stdin ($c branches)" [ "${c:-0}" -ge 10 ]
# what a kept test holds is the stream: "add", "sub" and "mul" were typed
check "stdin: the corpus holds commands" bash -c "cat '$T/w/corpus/'* | grep -aq 'sub'"
check "stdin: no Test-Comp suite" [ ! -e "$T/w/test-suite" ]
nw=$(ls "$T/w/corpus" | grep -c '^id-')
check "stdin: the summary names regression.c" grep -q "regression tests  $nw in $T/w/regression.c" "$T/w.out"
gcc -Wall -Wextra -Werror -o "$T/wrt" "$T/w/regression.c" "$P" || fail "compile regression.c"
check "stdin: regression.c passes ($nw tests)" bash -c "'$T/wrt' | grep -qx '$nw passed, 0 failed'"
c=$("$CTESTGEN" replay "$T/w" "$P" | sed -n "s|^  $P: branches \([0-9]*\)/.*|\1|p")
check "stdin: replay of OUT reads the corpus ($c branches)" [ "$c" = "$(stat replay.branches_covered "$T/w")" ]
"$CTESTGEN" run "$P" --strategy fuzz --max-execs 30000 --seed 2 --resume -q -o "$T/w" 2>/dev/null
nr=$(ls "$T/w/corpus" | grep -c '^id-')
check "stdin: --resume numbers on after the corpus ($nw -> $nr, no XML)" \
  bash -c "[ $nr -ge $nw ] && [ ! -e '$T/w/test-suite' ] && [ -f '$T/w/corpus/id-$(printf %05d $((nw - 1)))' ]"

# scanf("%d %d") guarding an error: input-to-state on text writes the
# compared numbers in decimal
"$CTESTGEN" run "$PROGS/stdin_two_ints.c" --strategy fuzz --max-execs 20000 --seed 1 -q -o "$T/two" 2>/dev/null
check "scanf of two ints: the fuzzer reaches the error" [ "$(stat errors.reached "$T/two")" = 1 ]
check "scanf of two ints: its input is the two numbers" bash -c "grep -aqE '^ *4242[^0-9]+4259' '$T/two/crashes/'error-*[0-9]"

# concolic execution models scanf on stdin: %d is the value of its digits
# (from the seed of five-digit numbers), %c and %s their bytes
"$CTESTGEN" run "$PROGS/stdin_two_ints.c" --strategy concolic --max-execs 100 --seed 1 -o "$T/ctwo" >"$T/ctwo.out" 2>&1
check "scanf of two ints: concolic reaches the error" [ "$(stat errors.reached "$T/ctwo")" = 1 ]
check "scanf of two ints: by solving, not by luck ($(stat solver.sat "$T/ctwo") sat)" [ "$(stat solver.sat "$T/ctwo")" -ge 1 ]
check "scanf of two ints: gcov's replay reaches it too" grep -q "gcov replay .*error reached" "$T/ctwo.out"
"$CTESTGEN" run "$PROGS/stdin_scanf_mix.c" --strategy concolic --max-execs 200 --seed 1 -q -o "$T/mix" --no-replay-check
check "scanf of -321, a char and a word: concolic reaches the error" [ "$(stat errors.reached "$T/mix")" = 1 ]
check "scanf of -321, a char and a word: its input" bash -c "grep -aqE '^ *-0*321 *q *go' '$T/mix/crashes/'error-*[0-9]"

# concolic execution models getchar and fread on stdin: the bytes are input
K="$PROGS/stdin_key.c"
"$CTESTGEN" run "$K" --strategy concolic --max-execs 100 --seed 1 -o "$T/k" >"$T/k.out" 2>&1 \
  || fail "concolic on a stdin target: $(tail -3 "$T/k.out")"
check "concolic: solver queries on stdin bytes ($(stat solver.sat "$T/k") sat)" [ "$(stat solver.sat "$T/k")" -ge 3 ]
check "concolic: a test spells KEY42! (getchar, fread, memcmp, getchar)" \
  bash -c "cat '$T/k/corpus/'* | grep -aq 'KEY42!'"

F="$PROGS/file_hdr.c"
"$CTESTGEN" run "$F" --strategy fuzz --max-execs 5000 --seed 1 -o "$T/f" -- @@ >"$T/f.out" 2>&1 \
  || fail "run with -- @@: $(tail -3 "$T/f.out")"
check "@@: recorded as input file with its arguments" \
  [ "$(jq -r '.info.input + " " + .info.args' "$T/f/stats.json")" = "file @@" ]
check "@@: past the magic bytes ($(stat edges.covered "$T/f")/14)" [ "$(stat edges.covered "$T/f")" -ge 10 ]
c=$("$CTESTGEN" replay "$T/f" "$F" | sed -n "s|^  $F: branches \([0-9]*\)/.*|\1|p")
check "@@: replay without arguments uses the recorded ones ($c)" [ "${c:-0}" -ge 10 ]
nf=$(ls "$T/f/corpus" | grep -c '^id-')
gcc -Wall -Wextra -Werror -o "$T/frt" "$T/f/regression.c" "$F" || fail "compile the @@ regression.c"
check "@@: regression.c passes, the test as the file ($nf tests)" bash -c "'$T/frt' | grep -qx '$nf passed, 0 failed'"
sed 's/h\[5\] > 200/h[5] > 255/' "$F" >"$T/fchanged.c" # never: the test that returned 5 fails
gcc -w -o "$T/frt2" "$T/f/regression.c" "$T/fchanged.c" || fail "compile against the changed file program"
check "@@: against a changed program a test fails" bash -c "'$T/frt2' | grep -q '^FAIL id-.*expected exit code 5'"
"$CTESTGEN" run "$F" --strategy fuzz --max-execs 300 --seed 1 -o "$T/n" >/dev/null 2>&1
check "without @@ the file program gets nothing to read" [ "$(stat edges.covered "$T/n")" -le 2 ]

"$CTESTGEN" run "$PROGS/file_abort.c" --strategy fuzz --max-execs 3000 --seed 1 -o "$T/c" -q -- @@ 2>/dev/null
cmd=$(tail -n 1 "$T/c"/crashes/abort-*.txt 2>/dev/null | head -1)
check "@@: the crash's reproduce command repeats the arguments" grep -q ' @@$' <<<"$cmd"
rc=0; sh -c "$cmd" 2>/dev/null || rc=$?
check "@@: and reproduces the abort (exit $rc)" [ "$rc" = 134 ]

H="$PROGS/stdin_gcc_hang.c"
"$CTESTGEN" run "$H" --strategy fuzz --max-execs 2000 --seed 1 --replay-timeout 0.5 -o "$T/h" >"$T/h.out" 2>&1 \
  || fail "run on stdin_gcc_hang.c: $(tail -3 "$T/h.out")"
check "stdin, hang under gcc: the test left the corpus for crashes/" \
  bash -c "ls '$T/h/crashes' | grep -q '^replay-timeout-[0-9]*\.in\$' && ls '$T/h/crashes' | grep -q '^replay-timeout-[0-9]*\.txt\$'"
check "stdin, hang under gcc: the summary says so" grep -q "replay timeouts .* moved to crashes/" "$T/h.out"
"$CTESTGEN" replay "$T/h" "$H" --replay-timeout 0.5 >"$T/h.rep"
check "stdin, hang under gcc: no kept test times out now" bash -c "! grep -q '^timed out' '$T/h.rep'"
nh=$(ls "$T/h/corpus" | grep -c '^id-')
gcc -w -o "$T/hrt" "$T/h/regression.c" "$H" || fail "compile the regression file of stdin_gcc_hang.c"
check "stdin, hang under gcc: regression.c passes ($nh tests)" bash -c "timeout 60 '$T/hrt' | grep -qx '$nh passed, 0 failed'"

"$CTESTGEN" run "$PROGS/stdin_mixed.c" --max-execs 200 -o "$T/m" >"$T/m.out" 2>&1 || fail "mixed program"
check "mix: a warning names it" grep -q "reads stdin and calls __VERIFIER_nondet_" "$T/m.out"
check "mix: values stay the input" [ "$(jq -r .info.input "$T/m/stats.json")" = values ]
finish
