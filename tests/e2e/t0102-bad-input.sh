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

# a program that takes a name the symbolic runtime reserves: prog.cov builds,
# prog.sym does not; the run goes on without concolic execution and says why,
# in stats.json even with -q (built first, and in the background); an
# explicit --strategy concolic fails
cat >"$T/reserved.c" <<'EOF'
extern int __VERIFIER_nondet_int(void);
int __ctg_sym_live;
int main(void) { return __VERIFIER_nondet_int() == 7 ? 1 : 0; }
EOF
sym_error() { jq -r '.info["build.sym_error"] // ""' "$1/stats.json"; }
expect_fail "reserved name: --strategy concolic cannot run" "__ctg_sym_live, a name ctestgen reserves" \
  "$CTESTGEN" run "$T/reserved.c" --strategy concolic --max-execs 20 -q -o "$T/rs0" --no-replay-check
"$CTESTGEN" run "$T/reserved.c" --max-execs 200 -q -o "$T/rs1" --no-replay-check >"$T/rs1.out" 2>&1
check "reserved name: auto goes on without concolic" [ $? = 0 ]
check "reserved name: -q prints nothing" [ ! -s "$T/rs1.out" ]
check "reserved name: stats.json says why prog.sym is missing" \
  sh -c "echo '$(sym_error "$T/rs1")' | grep -q __ctg_sym_live"
"$CTESTGEN" run "$T/reserved.c" --time 3 -q -o "$T/rs2" --no-replay-check >"$T/rs2.out" 2>&1
check "reserved name, background build: the run ends well" [ $? = 0 ]
check "reserved name, background build: stats.json says why" \
  sh -c "echo '$(sym_error "$T/rs2")' | grep -q __ctg_sym_live"
"$CTESTGEN" run "$EX/triangle.c" --strategy concolic --max-execs 20 -q -o "$T/rs3" --no-replay-check
check "a program prog.sym builds for: no build.sym_error" [ -z "$(sym_error "$T/rs3")" ]
finish
