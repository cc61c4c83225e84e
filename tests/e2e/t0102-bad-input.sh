#!/usr/bin/env bash
# t0102-bad-input: a missing file, a file that does not compile, a program with
# no entry point, an unreadable testcase for replay, bad options: one-line
# error naming the problem, non-zero exit, nothing earlier in -o lost.
# LABELS: asan
. "$(dirname "$0")/lib.sh"

# expect_fail DESC PATTERN COMMAND...: non-zero exit and PATTERN in the last stderr line.
expect_fail() {
  local d=$1 pat=$2; shift 2
  if "$@" >"$T/out" 2>"$T/err"; then fail "$d: exited 0"; return; fi
  local last; last=$(grep -v '^[[:space:]]*$' "$T/err" | tail -n 1)
  if [[ "$last" == ctestgen:* ]] && grep -q -- "$pat" <<<"$last"; then ok "$d"; else
    fail "$d: last stderr line '$last' lacks '$pat'"; fi
}

# An earlier run whose files must survive every failure below.
mkdir -p "$T/keep/test-suite"; echo precious >"$T/keep/test-suite/marker"; echo '{}' >"$T/keep/stats.json"

expect_fail "missing file" "nosuch.c" "$CTESTGEN" run "$T/nosuch.c" -o "$T/keep" --force
expect_fail "does not compile" "broken.c" "$CTESTGEN" run "$PROGS/broken.c" -o "$T/keep" --force
check "compiler diagnostics shown" grep -q "error" "$T/err"
echo "These are notes, not a program." >"$T/notes.txt"
expect_fail "prose file named as the program" "notes.txt: not a C source file" "$CTESTGEN" run "$T/notes.txt" -o "$T/keep" --force
expect_fail "no entry point" "neither main nor LLVMFuzzerTestOneInput" "$CTESTGEN" run "$PROGS/nomain.c" -o "$T/keep" --force
expect_fail "earlier run not clobbered without --force" "--force" "$CTESTGEN" run "$EX/triangle.c" -o "$T/keep" --max-execs 10
check "earlier output kept" grep -q precious "$T/keep/test-suite/marker"

expect_fail "unknown option" "--bogus" "$CTESTGEN" run "$EX/triangle.c" --bogus
expect_fail "bad number" "not a valid number" "$CTESTGEN" run "$EX/triangle.c" --max-execs lots
expect_fail "unknown command" "not a command" "$CTESTGEN" frobnicate
expect_fail "no program" "no program" "$CTESTGEN" run

# replay with an unreadable testcase
"$CTESTGEN" run "$EX/triangle.c" --strategy random --max-execs 200 --seed 1 -o "$T/r" -q || fail "run for replay"
echo "<testcase><input>1" >"$T/r/test-suite/test-99999.xml"
(cd "$T/r" && find . -type f -exec md5sum {} + | sort) >"$T/r.before"
expect_fail "replay: corrupt testcase" "test-99999.xml" "$CTESTGEN" replay "$T/r" "$EX/triangle.c"
check "replay: corrupt testcase, one error line" [ "$(grep -c '^ctestgen:' "$T/err")" = 1 ]
check "replay: the other tests are still replayed" grep -q "^branches: " "$T/out"
echo '<testcase><input type="int">12x</input></testcase>' >"$T/r/test-suite/test-99998.xml"
expect_fail "replay: two bad testcases" "2 bad testcase files skipped" "$CTESTGEN" replay "$T/r" "$EX/triangle.c"
check "replay: each bad file named on its own line" \
  [ "$(grep -c 'test-9999[89].xml' "$T/err")" = 2 ]
rm "$T/r/test-suite/test-99998.xml"
check "replay: nothing in the output directory changed" \
  bash -c "cd '$T/r' && find . -type f -exec md5sum {} + | sort | cmp -s - '$T/r.before'"
expect_fail "replay: missing directory" "nosuchdir" "$CTESTGEN" replay "$T/nosuchdir" "$EX/triangle.c"
check "stderr is one line per failure" [ "$(grep -c '^ctestgen:' "$T/err")" = 1 ]
finish
