#!/usr/bin/env bash
# t0118-export: `ctestgen export OUT --c FILE` turns a Test-Comp suite into
# one C file of regression tests: compiled with the program (gcc -Wall
# -Werror) it runs every test and prints "N passed, 0 failed"; the test
# that reached cgi_decode's error expects the error.  Against a changed
# program (the error gone) that test fails and the exit code says so.  A
# missing --c is a one-line error; a libFuzzer target's suite exports too
# (the file calls LLVMFuzzerTestOneInput and brings main).  A stdin
# target's corpus exports too: each test's bytes become the child's stdin
# (scanf of -321, a char and a word); the error test fails against a
# program whose guard changed.
# LABELS: asan
. "$(dirname "$0")/lib.sh"
P="$EX/cgi_decode.c"
"$CTESTGEN" run "$P" --max-execs 3000 --seed 1 -q -o "$T/a" 2>/dev/null || fail "run"
n=$(ls "$T/a/test-suite" | grep -c '^test-')
"$CTESTGEN" export "$T/a" --c "$T/tests.c" >"$T/exp.out" 2>&1 || fail "export: $(cat "$T/exp.out")"
check "export: says how to run them" grep -q "run them: cc .*tests.c" "$T/exp.out"
check "export: every test ($n) is in the file" [ "$(grep -c '^    {"test-' "$T/tests.c")" = "$n" ]
check "export: the error test expects the error" grep -q 'CTG_ERROR, 0},' "$T/tests.c"
check "the file compiles with the program (gcc -Wall -Wextra -Werror)" \
  gcc -Wall -Wextra -Werror -o "$T/rt" "$T/tests.c" "$P"
"$T/rt" >"$T/rt.out"; rc=$?
check "every test passes ($(tail -1 "$T/rt.out"))" grep -qx "$n passed, 0 failed" "$T/rt.out"
check "exit code 0" [ $rc = 0 ]

# the program changed: the error no longer aborts
sed 's/void reach_error(void) { abort(); }/void reach_error(void) { }/' "$P" >"$T/changed.c"
gcc -w -o "$T/rt2" "$T/tests.c" "$T/changed.c" || fail "compile against the changed program"
"$T/rt2" >"$T/rt2.out"; rc=$?
check "changed program: the error test fails ($(tail -1 "$T/rt2.out"))" grep -q "^FAIL .*expected the error" "$T/rt2.out"
check "changed program: exit code 1" [ $rc = 1 ]

"$CTESTGEN" export "$T/a" 2>"$T/e1"
check "no --c: a usage line" bash -c "grep -q 'usage: ctestgen export OUT --c FILE' '$T/e1'"
"$CTESTGEN" run "$EX/tree_parse.c" --strategy fuzz --max-execs 300 -q -o "$T/lf" 2>/dev/null
"$CTESTGEN" export "$T/lf" --c "$T/lf.c" >"$T/e2" 2>&1 || fail "export a libFuzzer suite: $(cat "$T/e2")"
nl=$(ls "$T/lf/test-suite" | grep -c '^test-')
gcc -Wall -Wextra -Werror -o "$T/lfrt" "$T/lf.c" "$EX/tree_parse.c" || fail "compile the libFuzzer tests"
check "a libFuzzer suite: the file brings main and every test passes ($nl)" \
  bash -c "'$T/lfrt' | grep -qx '$nl passed, 0 failed'"
S="$PROGS/stdin_scanf_mix.c"
"$CTESTGEN" run "$S" --strategy concolic --max-execs 200 --seed 1 -q -o "$T/s" 2>/dev/null || fail "run $S"
"$CTESTGEN" export "$T/s" --c "$T/s.c" >"$T/s.out" 2>&1 || fail "export stdin: $(cat "$T/s.out")"
ns=$(ls "$T/s/corpus" | grep -c '^id-')
check "stdin target: tests are bytes" grep -q 'static const unsigned char ctg_b0\[\]' "$T/s.c"
gcc -Wall -Wextra -Werror -o "$T/srt" "$T/s.c" "$S" || fail "compile the stdin tests"
check "stdin target: every test passes ($ns)" bash -c "'$T/srt' | grep -qx '$ns passed, 0 failed'"
sed 's/n == -321/n == -322/' "$S" >"$T/s2.c"
gcc -w -o "$T/srt2" "$T/s.c" "$T/s2.c" || fail "compile against the changed stdin program"
check "stdin target, guard changed: the error test fails" bash -c "'$T/srt2' | grep -q '^FAIL .*expected the error'"
finish
