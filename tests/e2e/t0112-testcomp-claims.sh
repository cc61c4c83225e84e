#!/usr/bin/env bash
# t0112-testcomp-claims: issue 19, a suite scores what the run claims.
#  - a task .yml alone: program, ILP32 data model and the error-call goal
#    are taken from it (built 32-bit: the error needs a 32-bit long), and
#    test-suite.zip is written as Test-Comp collects it;
#  - --property FILE.prp (Cover-Error) stops at the first error;
#  - a program that loops forever on some inputs (and on more under gcc)
#    keeps no test in test-suite/ that runs past the replay limit;
#  - a program consuming 100,000 values: its longest test holds them all
#    and replays as it ran;
#  - a program testing an uninitialised local: the summary's engine and
#    gcov figures agree; one that aborts only under gcc gets the warning;
#  - conditions of && and || used as values are goals of their own, so the
#    engine's "every goal covered" is gcov's 100 %;
#  - an error that the engine's clang build reaches on more inputs than gcc's:
#    the search goes on until a test reaches it under gcc too, and a test
#    that does not claims no error;
#  - a local that gcc's stack fills with leftovers: the warning names it.
# LABELS: asan
. "$(dirname "$0")/lib.sh"
export CTESTGEN_CACHE="$T/cache"

# gcovpct OUT: gcov's percentage from the summary line "gcov replay ...".
gcovpct() { sed -n 's/^  gcov replay .*(\([0-9.]*\)%).*/\1/p' "$1"; }
engpct() { sed -n 's/^  edges covered .*(\([0-9.]*\)%).*/\1/p' "$1"; }

# ---- task file (32-bit part) ---------------------------------------------
if exec32; then
  "$CTESTGEN" run "$PROGS/long32.yml" --max-execs 3000 -o "$T/task" >"$T/task.out" 2>&1
  check "task: run exits 0" [ $? = 0 ]
  check "task: built 32-bit (metadata)" grep -q "<architecture>32bit</architecture>" "$T/task/test-suite/metadata.xml"
  check "task: error-call specification" grep -q "@CALL(reach_error)" "$T/task/test-suite/metadata.xml"
  check "task: program from the task" grep -q "<programfile>.*long32.c</programfile>" "$T/task/test-suite/metadata.xml"
  check "task: error reached" [ "$(stat errors.reached "$T/task")" = 1 ]
  check "task: stopped at the error" grep -q "stopped: error reached (coverage-error-call" "$T/task.out"
  check "task: gcov replay reaches it too" grep -q "gcov replay .*error reached" "$T/task.out"
  check "task: test-suite.zip holds metadata and every test" bash -c \
    "[ \$(unzip -Z1 '$T/task/test-suite.zip' | grep -c '^test-suite/.*\.xml\$') = \$(ls '$T/task/test-suite' | grep -c '\.xml\$') ]"
  check "task: zip has test-suite/metadata.xml" bash -c "unzip -Z1 '$T/task/test-suite.zip' | grep -qx 'test-suite/metadata.xml'"
  # the same program as 64-bit cannot reach the error
  "$CTESTGEN" run "$PROGS/long32.c" --arch 64 --max-execs 3000 -o "$T/t64" -q
  check "64-bit: error unreachable" [ "$(stat errors.reached "$T/t64")" = 0 ]
else
  "$CTESTGEN" run "$PROGS/long32.yml" --max-execs 100 -o "$T/task" 2>"$T/task.err"; rc=$?
  check "task on a host without 32-bit execution: exit 1, one line with the way out" bash -c \
    "[ $rc = 1 ] && [ \$(wc -l <'$T/task.err') = 1 ] && grep -q 'ia32_emulation=on' '$T/task.err'"
fi

# ---- task files that cannot be run: one line, exit 1 -----------------------
printf "format_version: '1.0'\ninput_files: 'x.c'\n" >"$T/old.yml"
"$CTESTGEN" run "$T/old.yml" -o "$T/bad" 2>"$T/bad.err"; rc=$?
check "old format: exit 1" [ $rc = 1 ]
check "old format: one line naming the version" bash -c "[ \$(wc -l <'$T/bad.err') = 1 ] && grep -q \"format_version is '1.0'\" '$T/bad.err'"
printf "format_version: '2.0'\ninput_files: 'long32.c'\nproperties:\n  - property_file: ../p/unreach-call.prp\n" >"$T/unsup.yml"
cp "$PROGS/long32.c" "$T/"
"$CTESTGEN" run "$T/unsup.yml" -o "$T/bad" 2>"$T/bad.err"; rc=$?
check "verification-only task: unsupported, exit 1" bash -c "[ $rc = 1 ] && grep -q 'unsupported: .*unreach-call' '$T/bad.err'"
"$CTESTGEN" run "$PROGS/easy_error.c" --property "$PROGS/unreach.prp" -o "$T/bad" 2>"$T/bad.err"; rc=$?
check "verification .prp refused" bash -c "[ $rc != 0 ] && grep -q 'not a Test-Comp test property' '$T/bad.err'"

# ---- Cover-Error .prp: stop at the first error -----------------------------
"$CTESTGEN" run "$PROGS/easy_error.c" --property "$PROGS/error.prp" --max-execs 5000 -o "$T/ce" >"$T/ce.out" 2>&1
check "cover-error: stopped at the first error" grep -q "stopped: error reached" "$T/ce.out"
check "cover-error: few executions" [ "$(stat execs "$T/ce")" -lt 100 ]
check "cover-error: metadata specification" grep -q "@CALL(reach_error)" "$T/ce/test-suite/metadata.xml"
"$CTESTGEN" run "$PROGS/easy_error.c" --property coverage-error-call --keep-going --max-execs 3000 -o "$T/ck" -q
check "cover-error --keep-going: searches on" [ "$(stat execs "$T/ck")" = 3000 ]
"$CTESTGEN" run "$PROGS/easy_error.c" --max-execs 3000 -o "$T/cb" >"$T/cb.out" 2>&1
check "cover-branches (default): covers past the error" [ "$(stat edges.covered "$T/cb")" -gt "$(stat edges.covered "$T/ce")" ]

# ---- hangs: no kept test runs past the replay limit -----------------------
"$CTESTGEN" run "$PROGS/gcc_hang.c" --max-execs 3000 --replay-timeout 0.5 -o "$T/h" >"$T/h.out" 2>"$T/h.err"
rc=$?
# In the ASan/UBSan build, LeakSanitizer's own exit check has failed here
# on fresh CI clones (its last line "HINT: LeakSanitizer does not work under ptrace": its
# thread-stopping step, exit 1) after the run had done its work; it did
# not come back in 11 reruns of this test and 7 of the command (stop
# 64's note).  That failure of the
# sanitizer, with no line of ctestgen's own, is reported, not failed on.
lsan_only() { grep -q "HINT: LeakSanitizer does not work under ptrace" "$T/h.err" && ! grep -q "^ctestgen: [^w]" "$T/h.err"; }
if [ $rc != 0 ] && [ "${CTG_SANITIZE:-OFF}" = ON ] && lsan_only; then
  echo "note: hang run: LeakSanitizer's exit check failed (exit $rc), not ctestgen: $(grep -m1 -i "sanitizer" "$T/h.err")"
  rc=0
fi
check "hang: the run succeeds (exit $rc; $(grep -v "gcc's replay covers" "$T/h.err" | tail -1))" [ $rc = 0 ]
check "hang: tests that hang under gcc left the suite" bash -c "ls '$T/h/crashes' | grep -q '^replay-timeout-.*\.xml\$'"
check "hang: the summary says so" grep -q "replay timeouts .* moved to crashes/" "$T/h.out"
"$CTESTGEN" replay "$T/h" "$PROGS/gcc_hang.c" --replay-timeout 0.5 >"$T/h.rep"
check "hang: replay of the suite: no test times out" bash -c "! grep -q '^timed out' '$T/h.rep'"
check "hang: stats.json counts the removal" [ "$(stat replay.removed_timeouts "$T/h")" -ge 1 ]

# ---- 100,000 values: kept whole, replayed as run ---------------------------
"$CTESTGEN" run "$PROGS/many_values.c" --max-execs 200 -o "$T/mv" >"$T/mv.out" 2>&1
read -r longest lname < <(longest_test "$T/mv")
check "100k values: the longest test holds 100000 values ($longest)" [ "$longest" = 100000 ]
"$CTESTGEN" replay "$T/mv" "$PROGS/many_values.c" >"$T/mv.rep"
check "100k values: the longest test ($lname) does not run out in the replay" bash -c "! grep '^ran out' '$T/mv.rep' | grep -q '$lname'"
check "100k values: the extension bound grew for it" [ "$(stat exec.extend_limit "$T/mv")" -ge 400000 ]
check "100k values: replay covers what the engine counted" [ "$(gcovpct "$T/mv.out")" = "$(engpct "$T/mv.out")" ]
check "100k values: no test cut" [ "$(stat tests.cut_at_cap "$T/mv")" = 0 ]

# ---- uninitialised local: the two figures agree ----------------------------
"$CTESTGEN" run "$PROGS/uninit.c" --max-execs 2000 -o "$T/un" >"$T/un.out" 2>"$T/un.err"
e=$(engpct "$T/un.out"); g=$(gcovpct "$T/un.out")
check "uninit: engine $e% and gcov $g% agree, or the warning is printed" bash -c \
  "awk -v e=$e -v g=$g 'BEGIN{exit !(e-g <= 5 && g-e <= 5)}' || grep -q 'warning: gcc.s replay covers' '$T/un.err'"
check "uninit: the gcov figure is not 0" awk -v g="$g" 'BEGIN{exit !(g > 50)}'

# ---- && and || in value context: each condition is a goal, as in gcov -----
"$CTESTGEN" build "$PROGS/shortcircuit.c" >"$T/sc.build"
check "short-circuit: every condition is a branch (5)" grep -q "^branches  5 (10 edges)" "$T/sc.build"
"$CTESTGEN" run "$PROGS/shortcircuit.c" --max-execs 3000 -o "$T/sc" >"$T/sc.out" 2>&1
check "short-circuit: 'every goal covered' means gcov's 100% too" bash -c \
  "grep -q 'stopped: every goal covered' '$T/sc.out' && grep -q 'gcov replay .*(100.0%)' '$T/sc.out'"

# ---- a VLA larger than the stack: the loop is covered before the fault ----
"$CTESTGEN" run "$PROGS/bigvla.c" --max-execs 300 -o "$T/vla" -q --no-replay-check
check "big VLA: the loop condition is covered before the stack fault" \
  [ "$(stat edges.covered "$T/vla")" -ge 1 ]

# ---- every run faults before a branch: the empty test is kept ------------
"$CTESTGEN" run "$PROGS/bigframe.c" --max-execs 300 -o "$T/bf" >"$T/bf.out" 2>&1
check "big frame: a suite of at least one test" [ "$(stat tests "$T/bf")" -ge 1 ]
check "big frame: gcc's replay covers what ran before the fault" \
  bash -c "grep -qE 'gcov replay +branches [1-9]' '$T/bf.out'"
"$CTESTGEN" run "$PROGS/abort_first.c" --max-execs 50 -o "$T/af" -q --no-replay-check 2>/dev/null
check "no run covers anything: one test" [ "$(stat tests "$T/af")" = 1 ]
check "no run covers anything: it is the empty test kept at the end" [ "$(stat tests.empty_kept "$T/af")" = 1 ]
check "no run covers anything: its testcase has no input" \
  bash -c "! grep -q '<input' '$T/af/test-suite/test-00000.xml'"

# ---- an error reached in clang's build only: the search goes on ------------
"$CTESTGEN" run "$PROGS/gcc_error.c" --property coverage-error-call --max-execs 20000 --seed 1 \
  -o "$T/ge" >"$T/ge.out" 2>"$T/ge.err"
check "gcc-dependent error: a test that does not reach it under gcc is noticed" \
  [ "$(stat errors.check_failed "$T/ge")" -ge 1 ]
check "gcc-dependent error: the run says so" grep -q "but under gcc -O0 (the validator's build) it ends normal" "$T/ge.err"
check "gcc-dependent error: stopped once one is confirmed" bash -c \
  "grep -q 'stopped: error reached (coverage-error-call' '$T/ge.out' && [ $(stat errors.confirmed "$T/ge") = 1 ]"
check "gcc-dependent error: the summary counts both" \
  grep -q "errors reached    1/1  (under gcc -O0: 1 confirmed; [0-9]* tests\? reached an error in the engine's build only)" "$T/ge.out"
check "gcc-dependent error: gcov's replay reaches it" grep -q "gcov replay .*error reached" "$T/ge.out"
check "gcc-dependent error: the checks leave the search's fork server alone" \
  [ "$(stat executor.restarts "$T/ge")" = 0 ]
claim=$(grep -l coversError "$T"/ge/test-suite/test-*.xml)
check "gcc-dependent error: one test claims the error ($claim)" [ "$(echo "$claim" | grep -c .)" = 1 ]
"$CTESTGEN" replay "$T/ge" "$PROGS/gcc_error.c" >"$T/ge.rep"
check "gcc-dependent error: replay: the claiming test reaches it" \
  grep -q "^reach_error: reached by ${claim##*/}\$" "$T/ge.rep"
# without the check the run stops at the first error test, which gcc does not reach
"$CTESTGEN" run "$PROGS/gcc_error.c" --property coverage-error-call --max-execs 20000 --seed 1 \
  --no-error-check -o "$T/gn" -q
"$CTESTGEN" replay "$T/gn" "$PROGS/gcc_error.c" >"$T/gn.rep"
check "gcc-dependent error, --no-error-check: its suite does not reach it under gcc" \
  grep -q "reach_error: not reached" "$T/gn.rep"

# ---- compiler-dependent program: the warning names the first test ----------
"$CTESTGEN" run "$PROGS/gcc_abort.c" --max-execs 2000 -o "$T/ga" >"$T/ga.out" 2>"$T/ga.err"
check "gcc-only abort: one warning naming a test and the signal" \
  grep -q "warning: gcc's replay covers .* test-[0-9]*\.xml is killed by signal 6" "$T/ga.err"
check "gcc-only abort: stats.json marks the divergence" [ "$(stat replay.diverged "$T/ga")" = 1 ]

# ---- a local that gcc's stack fills: the warning names it -----------------
"$CTESTGEN" run "$PROGS/gcc_stack.c" --max-execs 2000 -o "$T/gs" >"$T/gs.out" 2>"$T/gs.err"
if awk -v g="$(gcovpct "$T/gs.out")" 'BEGIN{exit !(g < 50)}'; then
  check "stack leftovers: the warning names the line and the variable" \
    grep -q "paths may part at .*gcc_stack.c:15: 'flag' may be read before it is written (clang -W[a-z-]*uninitialized)" "$T/gs.err"
else
  echo "skip: stack leftovers: this gcc read 0 where gcc_stack.c expects leftovers ($(gcovpct "$T/gs.out")%)"
fi
finish
